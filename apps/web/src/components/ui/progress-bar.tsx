/**
 * A determinate progress bar: `value` of `max` (percent by default), filled from the start, read
 * out by screen readers through its label.
 */
export function ProgressBar({
  value,
  max = 100,
  label,
  size,
  className,
  testId,
}: {
  value: number;
  max?: number;
  label: string;
  size?: 'lg';
  className?: string;
  testId?: string;
}) {
  const shown = Math.max(0, Math.min(value, max));
  const classes = ['progress', size ? `progress--${size}` : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div
      className={classes}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={shown}
      data-testid={testId}
    >
      <span style={{ width: `${(shown / Math.max(1, max)) * 100}%` }} />
    </div>
  );
}
