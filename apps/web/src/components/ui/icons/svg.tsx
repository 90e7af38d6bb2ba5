import type { SVGProps } from 'react';

/** The app's icon set: 24×24 strokes that take the current text colour. */
export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

export function Svg({ size = 24, children, ...rest }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.9}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}
