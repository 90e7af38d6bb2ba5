import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { Spinner } from './spinner';

/** The five button themes. */
export type ButtonTheme = 'light' | 'primary' | 'danger' | 'black' | 'primary-outline';
export type ButtonSize = 'sm' | 'md' | 'lg';

interface Look {
  theme?: ButtonTheme;
  size?: ButtonSize;
  block?: boolean;
  icon?: ReactNode;
}

export function buttonClass({ theme = 'primary', size = 'md', block }: Look, extra?: string): string {
  return ['btn', `btn--${theme}`, `btn--${size}`, block ? 'btn--block' : '', extra ?? '']
    .filter(Boolean)
    .join(' ');
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & Look & { loading?: boolean };

export function Button({
  theme,
  size,
  block,
  icon,
  loading,
  children,
  className,
  disabled,
  type,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      className={buttonClass({ theme, size, block }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size={18} /> : icon}
      {children !== undefined && <span className="btn__label">{children}</span>}
    </button>
  );
}

export function ButtonLink({ theme, size, block, icon, children, className, ...rest }: LinkProps & Look) {
  return (
    <Link className={buttonClass({ theme, size, block }, className)} {...rest}>
      {icon}
      <span className="btn__label">{children}</span>
    </Link>
  );
}
