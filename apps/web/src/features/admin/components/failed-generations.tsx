import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TAdminGeneration } from '@mirra/contracts';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconCheck } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import { Spinner } from '../../../components/ui/spinner';
import { useAppStore } from '../../../lib/app-store';
import { adminApi, adminKeys } from '../api/admin.api';
import { GenerationFacts } from './generation-facts';
import { ReasonActions, type ReasonAction } from './reason-actions';

/** The latest failed generations, with what went wrong, a retry and a refund by hand. */
export function FailedGenerations() {
  const { t } = useTranslation();
  const failed = useQuery({ queryKey: adminKeys.failed(), queryFn: adminApi.failedGenerations });
  if (failed.isPending) return <Spinner size={28} />;
  if (failed.isError) return <LoadError query={failed} />;
  if (failed.data.results.length === 0) {
    return <EmptyState icon={<IconCheck size={28} />} title={t('admin.generations.empty')} />;
  }
  const enginesOf = new Map(failed.data.engines.map((entry) => [entry.mode, entry.engines]));
  return (
    <ul className="admin__list" data-testid="admin-failed-generations">
      {failed.data.results.map((generation) => (
        <FailedGeneration
          key={generation.uuid}
          generation={generation}
          engines={enginesOf.get(generation.mode) ?? []}
        />
      ))}
    </ul>
  );
}

/**
 * One failed generation. A retry runs it again, charging the person nothing (on the mode's usual
 * engines, or only the one chosen); a refund gives its credits back if the failure did not.
 */
function FailedGeneration({ generation, engines }: { generation: TAdminGeneration; engines: string[] }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [engine, setEngine] = useState<string | null>(null);
  const actions: ReasonAction[] = [];
  if (engines.length > 0) {
    actions.push({
      id: 'retry',
      label: t('admin.generations.retry'),
      theme: 'primary',
      run: (reason) => adminApi.retryGeneration(generation.uuid, reason, engine),
    });
  }
  if (!generation.refunded && generation.cost > 0) {
    actions.push({
      id: 'refund',
      label: t('admin.generations.refund', { count: generation.cost }),
      theme: 'light',
      run: (reason) => adminApi.refundGeneration(generation.uuid, reason),
    });
  }
  return (
    <li className="admin__card" data-testid="admin-failed-generation" data-generation={generation.uuid}>
      <GenerationFacts generation={generation} />
      <Link className="admin__meta" to={`/admin/users/${generation.user_uuid}/`}>
        {t('admin.generations.owner')}
      </Link>
      {engines.length > 0 && (
        <>
          <SegmentedChoice
            title={t('admin.generations.retryOn')}
            value={engine}
            onChange={setEngine}
            options={[
              { value: null, label: t('admin.generations.usualEngines'), testId: 'retry-engine-usual' },
              ...engines.map((name) => ({ value: name, label: name, testId: `retry-engine-${name}` })),
            ]}
          />
          <p className="admin__meta">
            {generation.refunded ? t('admin.generations.retryFree') : t('admin.generations.retryPaid')}
          </p>
        </>
      )}
      {actions.length > 0 && (
        <ReasonActions
          testId="generation-actions"
          onDone={(id) => {
            useAppStore
              .getState()
              .showTopinfo(
                'success',
                t(id === 'retry' ? 'admin.generations.retried' : 'admin.generations.refunded'),
              );
            void client.invalidateQueries({ queryKey: adminKeys.failed() });
          }}
          actions={actions}
        />
      )}
    </li>
  );
}
