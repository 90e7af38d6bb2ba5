import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CURRENCY_USD, type TAdminDashboard, type TAdminMarginRow } from '@mirra/contracts';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/dates';
import { numberFormat } from '../../../lib/locale-fallback';
import { formatMoney } from '../../payments';
import { adminApi, adminKeys } from '../api/admin.api';
import { DayBars } from './day-bars';

const STATUS_NAMES: Record<number, string> = {
  0: 'new',
  30: 'queued',
  60: 'running',
  100: 'done',
  [-100]: 'error',
  [-200]: 'failed',
};

function Tile({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string;
  note?: string;
  testId: string;
}) {
  return (
    <div className="admin-tile" data-testid={testId}>
      <span className="admin-tile__label">{label}</span>
      <strong className="admin-tile__value">{value}</strong>
      {note && <span className="admin-tile__note">{note}</span>}
    </div>
  );
}

/** Cost against credit value per mode and engine; scrolls sideways on a narrow screen. */
function MarginTable({
  rows,
  testId,
  emptyText,
  usd,
  whole,
}: {
  rows: TAdminMarginRow[];
  testId: string;
  /** What an empty window says: nothing today is not nothing in 30 days. */
  emptyText: string;
  usd: (value: number | null) => string;
  whole: (value: number) => string;
}) {
  const { t } = useTranslation();
  if (rows.length === 0) return <p className="admin__meta">{emptyText}</p>;
  return (
    <div className="admin-table__scroll">
      <table className="admin-table" data-testid={testId}>
        <thead>
          <tr>
            <th>{t('admin.dashboard.mode')}</th>
            <th>{t('admin.generations.engine')}</th>
            <th>{t('admin.dashboard.count')}</th>
            <th>{t('admin.dashboard.providerCost')}</th>
            <th>{t('admin.dashboard.credits')}</th>
            <th>{t('admin.dashboard.creditValue')}</th>
            <th>{t('admin.dashboard.margin')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.mode}-${row.engine}`}>
              <td>
                {row.mode === 'training' ? t('admin.dashboard.training') : t(`modes.${row.mode}.title`)}
              </td>
              <td>{row.engine}</td>
              <td>{whole(row.count)}</td>
              <td>{usd(row.cost_usd)}</td>
              <td>{whole(row.credits)}</td>
              <td>{usd(row.value_usd)}</td>
              <td className={row.margin_usd !== null && row.margin_usd < 0 ? 'admin-table__loss' : undefined}>
                {usd(row.margin_usd)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A wait in the largest unit that fits: seconds, minutes, hours. */
function useWait() {
  const { t } = useTranslation();
  return (seconds: number) =>
    seconds < 120
      ? t('admin.dashboard.seconds', { count: seconds })
      : seconds < 7200
        ? t('admin.dashboard.minutes', { count: Math.floor(seconds / 60) })
        : t('admin.dashboard.hours', { count: Math.floor(seconds / 3600) });
}

/** The console home for admins: the service at a glance, every number counted by the server now. */
export function Dashboard() {
  const { t, i18n } = useTranslation();
  const wait = useWait();
  const query = useQuery({ queryKey: adminKeys.dashboard(), queryFn: adminApi.dashboard });
  if (query.isPending) return <Spinner size={28} />;
  if (query.isError) return <LoadError query={query} />;
  const data: TAdminDashboard = query.data;
  const language = i18n.language;
  const whole = (value: number) => numberFormat(language).format(value);
  const percent = (value: number) =>
    numberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(value);
  const usd = (value: number | null) =>
    value === null ? '—' : formatMoney(Math.round(value * 100), CURRENCY_USD, language);
  const creditPrice = data.margin.credit_price_usd;
  const g = data.generations_today;
  const generationsToday = g.by_status.reduce((sum, entry) => sum + entry.count, 0);
  return (
    <div className="stack admin-dashboard" data-testid="admin-dashboard">
      <div className="admin-dashboard__when">
        <span>{t('admin.dashboard.asOf', { time: formatDateTime(data.generated_at, language) })}</span>
        <Button
          theme="light"
          size="sm"
          loading={query.isFetching}
          onClick={() => void query.refetch()}
          data-testid="admin-dashboard-refresh"
        >
          {t('admin.dashboard.refresh')}
        </Button>
      </div>
      <div className="admin-tiles">
        <Tile
          testId="admin-tile-users"
          label={t('admin.dashboard.users')}
          value={whole(data.users.total)}
          note={t('admin.dashboard.newUsers', {
            today: whole(data.users.new_today),
            week: whole(data.users.new_7d),
          })}
        />
        <Tile
          testId="admin-tile-active"
          label={t('admin.dashboard.activeToday')}
          value={whole(data.active_users.today)}
          note={t('admin.dashboard.activeWeek', { week: whole(data.active_users.last_7d) })}
        />
        <Tile
          testId="admin-tile-generations"
          label={t('admin.dashboard.generationsToday')}
          value={whole(generationsToday)}
          note={t('admin.dashboard.finished', { count: g.finished })}
        />
        <Tile
          testId="admin-tile-failures"
          label={t('admin.dashboard.failureRate')}
          value={g.failure_rate === null ? '—' : percent(g.failure_rate)}
          note={
            g.failure_rate === null
              ? t('admin.dashboard.nothingFinished')
              : t('admin.dashboard.failedOf', { failed: whole(g.failed), finished: whole(g.finished) })
          }
        />
        <Tile
          testId="admin-tile-queue"
          label={t('admin.dashboard.queue')}
          value={whole(data.queue.depth)}
          note={
            data.queue.oldest_age_seconds === null
              ? t('admin.dashboard.nobodyWaits')
              : t('admin.dashboard.oldestWaits', { wait: wait(data.queue.oldest_age_seconds) })
          }
        />
        <Tile
          testId="admin-tile-payouts"
          label={t('admin.dashboard.payoutsPending')}
          value={whole(data.payouts_pending.reduce((sum, entry) => sum + entry.count, 0))}
          note={
            data.payouts_pending
              .map((entry) => formatMoney(entry.amount, entry.currency, language))
              .join(' · ') || t('admin.dashboard.noPayouts')
          }
        />
      </div>

      <section className="admin-dashboard__block">
        <h2 className="admin-dashboard__title">{t('admin.dashboard.byEngine')}</h2>
        {g.by_engine.length === 0 ? (
          <p className="admin__meta">{t('admin.dashboard.noGenerations')}</p>
        ) : (
          <div className="admin-table__scroll">
            <table className="admin-table" data-testid="admin-engines">
              <thead>
                <tr>
                  <th>{t('admin.generations.engine')}</th>
                  <th>{t('admin.dashboard.count')}</th>
                  <th>{t('admin.dashboard.failed')}</th>
                </tr>
              </thead>
              <tbody>
                {g.by_engine.map((entry) => (
                  <tr key={entry.engine}>
                    <td>{entry.engine}</td>
                    <td>{whole(entry.count)}</td>
                    <td>{whole(entry.failed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {g.by_status.length > 0 && (
          <div className="admin__badges">
            {g.by_status.map((entry) => (
              <span key={entry.status} className="admin__badge">
                {t(`admin.dashboard.status.${STATUS_NAMES[entry.status] ?? 'new'}`)}: {whole(entry.count)}
              </span>
            ))}
            {g.by_mode.map((entry) => (
              <span key={entry.mode} className="admin__badge">
                {t(`modes.${entry.mode}.title`)}: {whole(entry.count)}
              </span>
            ))}
          </div>
        )}
      </section>

      <section className="admin-dashboard__block">
        <h2 className="admin-dashboard__title">{t('admin.dashboard.failureReasons')}</h2>
        {data.failure_reasons_today.length === 0 ? (
          <p className="admin__meta">{t('admin.dashboard.noFailureReasons')}</p>
        ) : (
          <div className="admin-table__scroll">
            <table className="admin-table" data-testid="admin-failure-reasons">
              <thead>
                <tr>
                  <th>{t('admin.dashboard.reason')}</th>
                  <th>{t('admin.dashboard.count')}</th>
                </tr>
              </thead>
              <tbody>
                {data.failure_reasons_today.map((entry) => (
                  <tr key={entry.reason}>
                    <td>
                      <span className="admin__mono">{entry.reason}</span>
                      {/* What the person was told, in the console's language, under the engine's code. */}
                      {i18n.exists(`result.failure.reasons.${entry.reason}`) && (
                        <span className="admin__meta admin-dashboard__reason">
                          {t(`result.failure.reasons.${entry.reason}`)}
                        </span>
                      )}
                    </td>
                    <td>{whole(entry.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="admin-dashboard__block">
        <h2 className="admin-dashboard__title">{t('admin.dashboard.likenessTitle')}</h2>
        {data.likeness_refunds.length === 0 ? (
          <p className="admin__meta">{t('admin.dashboard.noLikeness')}</p>
        ) : (
          <div className="admin-table__scroll">
            <table className="admin-table" data-testid="admin-likeness">
              <thead>
                <tr>
                  <th>{t('admin.generations.engine')}</th>
                  <th>{t('admin.dashboard.likenessChecked')}</th>
                  <th>{t('admin.dashboard.likenessRefunded')}</th>
                </tr>
              </thead>
              <tbody>
                {data.likeness_refunds.map((entry) => (
                  <tr key={entry.engine}>
                    <td>{entry.engine}</td>
                    <td>{whole(entry.checked)}</td>
                    <td>
                      {whole(entry.refunded)} ({entry.share === null ? '—' : percent(entry.share)})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="admin-dashboard__block" data-testid="admin-margin">
        <h2 className="admin-dashboard__title">{t('admin.dashboard.marginTitle')}</h2>
        <p className="admin__meta" data-testid="admin-margin-note">
          {creditPrice === null
            ? t('admin.dashboard.creditPriceUnknown')
            : t('admin.dashboard.creditPrice', {
                price: numberFormat(language, {
                  style: 'currency',
                  currency: 'USD',
                  currencyDisplay: 'narrowSymbol',
                  maximumFractionDigits: 4,
                }).format(creditPrice),
              })}{' '}
          {t('admin.dashboard.marginNote')}
        </p>
        <h3 className="admin-dashboard__subtitle">{t('admin.dashboard.today')}</h3>
        <MarginTable
          rows={data.margin.today}
          testId="admin-margin-today"
          emptyText={t('admin.dashboard.noGenerations')}
          usd={usd}
          whole={whole}
        />
        <h3 className="admin-dashboard__subtitle">{t('admin.dashboard.days30')}</h3>
        <MarginTable
          rows={data.margin.last_30d}
          testId="admin-margin-30d"
          emptyText={t('admin.dashboard.noWork30d')}
          usd={usd}
          whole={whole}
        />
      </section>

      <section className="admin-dashboard__block">
        <h2 className="admin-dashboard__title">{t('admin.dashboard.revenue')}</h2>
        {data.revenue.length === 0 ? (
          <p className="admin__meta">{t('admin.dashboard.noRevenue')}</p>
        ) : (
          <div className="admin-table__scroll">
            <table className="admin-table" data-testid="admin-revenue">
              <thead>
                <tr>
                  <th>{t('admin.dashboard.provider')}</th>
                  <th>{t('admin.dashboard.today')}</th>
                  <th>{t('admin.dashboard.days30')}</th>
                  <th>{t('admin.dashboard.refunded')}</th>
                </tr>
              </thead>
              <tbody>
                {data.revenue.map((entry) => (
                  <tr key={`${entry.provider}-${entry.currency}`}>
                    <td>{entry.provider}</td>
                    <td>{formatMoney(entry.today, entry.currency, language)}</td>
                    <td>{formatMoney(entry.last_30d, entry.currency, language)}</td>
                    <td>{formatMoney(entry.refunded_30d, entry.currency, language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="admin-dashboard__block admin-charts">
        <h2 className="admin-dashboard__title">{t('admin.dashboard.last30')}</h2>
        <DayBars
          testId="admin-chart-signups"
          title={t('admin.dashboard.signups')}
          days={data.series.days}
          values={data.series.signups}
          format={whole}
          language={language}
        />
        <DayBars
          testId="admin-chart-generations"
          title={t('admin.dashboard.generationsFailed')}
          days={data.series.days}
          values={data.series.generations}
          overlay={data.series.failed}
          format={whole}
          language={language}
        />
        {data.series.revenue.map((entry) => (
          <DayBars
            key={entry.currency}
            testId={`admin-chart-revenue-${entry.currency}`}
            title={t('admin.dashboard.revenue')}
            days={data.series.days}
            values={entry.amounts}
            format={(value) => formatMoney(value, entry.currency, language)}
            language={language}
          />
        ))}
      </section>
    </div>
  );
}
