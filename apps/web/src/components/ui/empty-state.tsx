import type { ReactNode } from 'react';

export function EmptyState({
  icon,
  title,
  text,
  action,
  tone = 'default',
}: {
  icon?: ReactNode;
  title: ReactNode;
  text?: ReactNode;
  action?: ReactNode;
  tone?: 'default' | 'brand';
}) {
  return (
    <div className={`empty-state empty-state--${tone}`}>
      {icon && <div className="empty-state__icon">{icon}</div>}
      <h2 className="empty-state__title">{title}</h2>
      {text && <p className="empty-state__text">{text}</p>}
      {action && <div className="empty-state__action">{action}</div>}
    </div>
  );
}
