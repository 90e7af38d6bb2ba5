import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TAdminHealth } from '@mirra/contracts';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/dates';
import { numberFormat } from '../../../lib/locale-fallback';
import { adminApi, adminKeys } from '../api/admin.api';

/** A state as a short word, marked for the eye: ok, down (failed), or only configured. */
function State({ state, testId }: { state: 'ok' | 'failed' | 'down' | 'configured'; testId?: string }) {
  const { t } = useTranslation();
  const tone = state === 'ok' ? 'ok' : state === 'configured' ? 'neutral' : 'bad';
  return (
    <span
      className={`admin-health__state admin-health__state--${tone}`}
      data-testid={testId}
      data-state={state}
    >
      {t(`admin.health.states.${state}`)}
    </span>
  );
}

/**
 * The service's health: readiness as `/readyz` answers it, the job queue, engines per mode and
 * their providers, webhook errors and the store, read by the server when asked (refreshed each
 * half minute while open).
 */
export function Health() {
  const { t, i18n } = useTranslation();
  const query = useQuery({ queryKey: adminKeys.health(), queryFn: adminApi.health, refetchInterval: 30_000 });
  if (query.isPending) return <Spinner size={28} />;
  if (query.isError) return <LoadError query={query} />;
  const data: TAdminHealth = query.data;
  const language = i18n.language;
  const whole = (value: number) => numberFormat(language).format(value);
  const oldest = data.queue.oldest_seconds;
  return (
    <div className="stack admin-health" data-testid="admin-health" data-status={data.status}>
      <div className="admin-dashboard__when">
        <span>{t('admin.dashboard.asOf', { time: formatDateTime(data.checked_at, language) })}</span>
        <Button theme="light" size="sm" loading={query.isFetching} onClick={() => void query.refetch()}>
          {t('admin.dashboard.refresh')}
        </Button>
      </div>
      <section className="admin__card stack" data-testid="admin-health-readiness">
        <h2 className="admin-dashboard__title">
          {t(data.status === 'ok' ? 'admin.health.ready' : 'admin.health.notReady')}
        </h2>
        <ul className="admin-health__list">
          {Object.entries(data.checks).map(([check, state]) => (
            <li key={check}>
              <span>{t(`admin.health.checks.${check}`)}</span>
              <State state={state} testId={`admin-health-check-${check}`} />
            </li>
          ))}
        </ul>
      </section>
      <section className="admin__card stack" data-testid="admin-health-queue">
        <h2 className="admin-dashboard__title">{t('admin.health.queue')}</h2>
        <ul className="admin-health__list">
          <li>
            <span>{t('admin.health.waiting')}</span>
            <strong data-testid="admin-health-queue-depth">{whole(data.queue.depth)}</strong>
          </li>
          <li>
            <span>{t('admin.health.oldest')}</span>
            <strong data-testid="admin-health-queue-oldest">
              {oldest === null ? '—' : t('admin.health.seconds', { count: Math.round(oldest) })}
            </strong>
          </li>
        </ul>
      </section>
      <section className="admin__card stack" data-testid="admin-health-engines">
        <h2 className="admin-dashboard__title">{t('admin.health.engines')}</h2>
        <ul className="admin-health__list">
          {Object.entries(data.engines).map(([mode, engines]) => (
            <li key={mode}>
              <span>{mode}</span>
              <span className="admin-health__engines">{engines.join(' → ')}</span>
            </li>
          ))}
          {Object.entries(data.providers).map(([provider, state]) => (
            <li key={provider}>
              <span>{provider}</span>
              <State state={state} testId={`admin-health-provider-${provider}`} />
            </li>
          ))}
        </ul>
      </section>
      <section className="admin__card stack" data-testid="admin-health-webhooks">
        <h2 className="admin-dashboard__title">{t('admin.health.webhookErrors')}</h2>
        {data.webhook_errors.length === 0 ? (
          <p className="admin__meta">{t('admin.health.noWebhookErrors')}</p>
        ) : (
          <ul className="admin-health__list">
            {data.webhook_errors.map((entry) => (
              <li key={`${entry.source}-${entry.reason}`} data-testid="admin-health-webhook-error">
                <span>
                  {entry.source} · {entry.reason}
                </span>
                <strong>{whole(entry.count)}</strong>
              </li>
            ))}
          </ul>
        )}
        <p className="admin__meta">{t('admin.health.perProcess')}</p>
      </section>
      <section className="admin__card stack" data-testid="admin-health-storage">
        <h2 className="admin-dashboard__title">{t('admin.health.storage')}</h2>
        <ul className="admin-health__list">
          <li>
            <span>{t(`admin.health.storageKinds.${data.storage.kind}`)}</span>
            <State state={data.checks.storage} />
          </li>
        </ul>
      </section>
    </div>
  );
}
