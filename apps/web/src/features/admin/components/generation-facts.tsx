import { useTranslation } from 'react-i18next';
import type { TAdminGeneration } from '@mirra/contracts';
import { formatDateTime } from '../../../lib/dates';

/** What staff need to judge a generation: mode, engine and provider, status, cost and its error. */
export function GenerationFacts({ generation }: { generation: TAdminGeneration }) {
  const { t, i18n } = useTranslation();
  const failed = generation.status < 0;
  return (
    <div className="admin__facts">
      <div className="admin__badges">
        <span className="admin__badge">{t(`modes.${generation.mode}.title`)}</span>
        <span className={`admin__badge${failed ? ' admin__badge--hidden' : ''}`}>
          {t(
            `admin.generations.status.${failed ? 'failed' : generation.status === 100 ? 'done' : 'running'}`,
          )}
        </span>
        {generation.refunded && <span className="admin__badge">{t('admin.generations.wasRefunded')}</span>}
      </div>
      {generation.prompt && <p className="admin__prompt">{generation.prompt}</p>}
      <dl className="admin__dl">
        <dt>{t('admin.generations.engine')}</dt>
        <dd>
          {generation.engine}
          {generation.provider ? ` · ${generation.provider}` : ''}
          {generation.provider_job_id ? ` · ${generation.provider_job_id}` : ''}
        </dd>
        <dt>{t('admin.generations.cost')}</dt>
        <dd>{generation.cost}</dd>
        {generation.likeness !== null && (
          <>
            <dt>{t('admin.generations.likeness')}</dt>
            <dd data-testid="admin-generation-likeness">{generation.likeness.toFixed(2)}</dd>
          </>
        )}
        <dt>{t('admin.generations.created')}</dt>
        <dd>{formatDateTime(generation.created_at, i18n.language)}</dd>
        {generation.error_code && (
          <>
            <dt>{t('admin.generations.error')}</dt>
            <dd className="admin__error">
              {generation.error_code}
              {generation.error_reason ? ` (${generation.error_reason})` : ''}
              {generation.error_detail ? `: ${generation.error_detail}` : ''}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
