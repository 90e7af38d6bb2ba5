import { formatDay } from '../../../lib/dates';

const WIDTH = 300;
const HEIGHT = 72;

/**
 * A bar per day, drawn as inline SVG (no chart library: the console is a lazy chunk of its own
 * and a few rectangles need none). `overlay` draws a part of each bar (failed of all) on top.
 */
export function DayBars({
  title,
  days,
  values,
  overlay,
  format,
  language,
  testId,
}: {
  title: string;
  days: string[];
  values: number[];
  overlay?: number[];
  format: (value: number) => string;
  language: string;
  testId: string;
}) {
  const max = Math.max(0, ...values);
  const total = values.reduce((sum, value) => sum + value, 0);
  const step = WIDTH / Math.max(1, days.length);
  const height = (value: number) => (max === 0 ? 0 : Math.max(value > 0 ? 1.5 : 0, (value / max) * HEIGHT));
  return (
    <figure className="admin-chart" data-testid={testId} data-total={total}>
      <figcaption className="admin-chart__head">
        <span>{title}</span>
        <strong>{format(total)}</strong>
      </figcaption>
      <svg
        className="admin-chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${title}: ${format(total)}`}
      >
        <line className="admin-chart__axis" x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
        {days.map((day, index) => {
          const value = values[index] ?? 0;
          const part = overlay?.[index] ?? 0;
          return (
            <g key={day}>
              <title>{`${formatDay(`${day}T12:00:00Z`, language, 'UTC')}: ${format(value)}`}</title>
              <rect
                className="admin-chart__bar"
                x={index * step + step * 0.15}
                width={step * 0.7}
                y={HEIGHT - height(value)}
                height={height(value)}
              />
              {part > 0 && (
                <rect
                  className="admin-chart__bar admin-chart__bar--part"
                  x={index * step + step * 0.15}
                  width={step * 0.7}
                  y={HEIGHT - height(part)}
                  height={height(part)}
                />
              )}
            </g>
          );
        })}
      </svg>
      <div className="admin-chart__foot">
        <span>{days[0] ? formatDay(`${days[0]}T12:00:00Z`, language, 'UTC') : ''}</span>
        <span>{format(max)}</span>
        <span>{days.at(-1) ? formatDay(`${days.at(-1)}T12:00:00Z`, language, 'UTC') : ''}</span>
      </div>
    </figure>
  );
}
