import { useTranslation } from 'react-i18next';
import type { TPartnerStatistics } from '@mirra/contracts';
import { formatMonthShort } from '../../../lib/dates';
import { formatMoney } from '../../payments';

const WIDTH = 340;
const HEIGHT = 170;
const PAD = { top: 12, right: 8, bottom: 24, left: 8 };

/**
 * Twelve months of team turnover (bars) and my income (a line over them), each on its own scale so
 * a small income still shows its shape; the exact amounts are in the bars' titles.
 */
export function IncomeChart({ statistics }: { statistics: TPartnerStatistics }) {
  const { t, i18n } = useTranslation();
  const months = statistics.months;
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const step = innerW / months.length;
  const maxTurnover = Math.max(1, ...months.map((m) => m.turnover));
  const maxIncome = Math.max(1, ...months.map((m) => m.income));
  const y = (value: number, max: number) => PAD.top + innerH - (Math.max(0, value) / max) * innerH;
  const x = (i: number) => PAD.left + step * i + step / 2;
  const line = months.map(
    (m, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(m.income, maxIncome).toFixed(1)}`,
  );
  const monthLabel = (month: string) => formatMonthShort(`${month}-01T00:00:00Z`, i18n.language, 'UTC');
  const money = (amount: number) => formatMoney(amount, statistics.currency, i18n.language);
  return (
    <figure className="partner-chart" data-testid="partner-chart">
      <figcaption className="partner-chart__legend">
        <span className="partner-chart__key partner-chart__key--turnover">
          {t('partners.stats.chartTurnover')}
        </span>
        <span className="partner-chart__key partner-chart__key--income">
          {t('partners.stats.chartIncome')}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t('partners.stats.chart')}>
        <line
          className="partner-chart__axis"
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={PAD.top + innerH}
          y2={PAD.top + innerH}
        />
        {months.map((m, i) => {
          const top = y(m.turnover, maxTurnover);
          return (
            <g key={m.month}>
              <rect
                className="partner-chart__bar"
                x={x(i) - step * 0.32}
                width={step * 0.64}
                y={top}
                height={Math.max(0, PAD.top + innerH - top)}
                rx={3}
              >
                <title>{`${monthLabel(m.month)}: ${money(m.turnover)} / ${money(m.income)}`}</title>
              </rect>
              <text className="partner-chart__label" x={x(i)} y={HEIGHT - 6} textAnchor="middle">
                {monthLabel(m.month).slice(0, 3)}
              </text>
            </g>
          );
        })}
        <path className="partner-chart__line" d={line.join(' ')} fill="none" />
        {months.map((m, i) => (
          <circle
            key={m.month}
            className="partner-chart__dot"
            cx={x(i)}
            cy={y(m.income, maxIncome)}
            r={2.5}
          />
        ))}
      </svg>
    </figure>
  );
}
