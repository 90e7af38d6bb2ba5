import type { ReactNode } from 'react';
import { IconAlert, IconCheck, IconInfo } from './icons';

export function Alert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success' | 'info';
  children: ReactNode;
}) {
  const Icon = tone === 'success' ? IconCheck : tone === 'info' ? IconInfo : IconAlert;
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <Icon size={20} className="alert__icon" />
      <div className="alert__text">{children}</div>
    </div>
  );
}
