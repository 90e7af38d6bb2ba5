import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconCheck } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { useAppStore } from '../../../lib/app-store';
import { adminApi, adminKeys } from '../api/admin.api';
import { GenerationFacts } from './generation-facts';
import { ReasonActions } from './reason-actions';

/** The latest failed generations, with what went wrong and a refund by hand. */
export function FailedGenerations() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const failed = useQuery({ queryKey: adminKeys.failed(), queryFn: adminApi.failedGenerations });
  if (failed.isPending) return <Spinner size={28} />;
  if (failed.isError) return <LoadError query={failed} />;
  if (failed.data.results.length === 0) {
    return <EmptyState icon={<IconCheck size={28} />} title={t('admin.generations.empty')} />;
  }
  return (
    <ul className="admin__list" data-testid="admin-failed-generations">
      {failed.data.results.map((generation) => (
        <li key={generation.uuid} className="admin__card">
          <GenerationFacts generation={generation} />
          <Link className="admin__meta" to={`/admin/users/${generation.user_uuid}/`}>
            {t('admin.generations.owner')}
          </Link>
          {!generation.refunded && generation.cost > 0 && (
            <ReasonActions
              testId="refund-actions"
              onDone={() => {
                useAppStore.getState().showTopinfo('success', t('admin.generations.refunded'));
                void client.invalidateQueries({ queryKey: adminKeys.failed() });
              }}
              actions={[
                {
                  id: 'refund',
                  label: t('admin.generations.refund', { count: generation.cost }),
                  theme: 'primary',
                  run: (reason) => adminApi.refundGeneration(generation.uuid, reason),
                },
              ]}
            />
          )}
        </li>
      ))}
    </ul>
  );
}
