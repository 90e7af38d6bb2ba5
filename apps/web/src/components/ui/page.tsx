import type { ReactNode } from 'react';

/** A page's content column; `wide` for grids, `narrow` for forms and compact settings. */
export function PageFrame({
  children,
  width = 'normal',
  className,
  testId,
}: {
  children: ReactNode;
  width?: 'narrow' | 'normal' | 'wide';
  className?: string;
  testId?: string;
}) {
  return (
    <div className={`page page--${width} ${className ?? ''}`} data-testid={testId}>
      {children}
    </div>
  );
}

export function PageHeading({
  title,
  subtitle,
  action,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="page-heading">
      <div>
        <h1 className="page-heading__title">{title}</h1>
        {subtitle && <p className="page-heading__subtitle">{subtitle}</p>}
      </div>
      {action && <div className="page-heading__action">{action}</div>}
    </div>
  );
}

export function Section({
  title,
  action,
  children,
}: {
  title?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="section">
      {(title || action) && (
        <div className="section__head">
          {title && <h2 className="section__title">{title}</h2>}
          {action}
        </div>
      )}
      {children}
    </section>
  );
}
