import { useTranslation } from 'react-i18next';
import { GenerationStatus } from '@mirra/contracts';
import type { TModelSummary } from '../../../lib/api-types';
import { modelPhase, trainingPercent } from '../model-status';
import '../models.css';

/** A model's state in a word or two: collecting photos, waiting, training with its percent, ready, failed. */
export function ModelStatusChip({ model }: { model: Pick<TModelSummary, 'status' | 'progress'> }) {
  const { t } = useTranslation();
  const phase = modelPhase(model.status);
  const text =
    phase === 'training'
      ? model.status === GenerationStatus.IN_QUEUE
        ? t('model.status.queued')
        : t('model.status.training', { percent: trainingPercent(model.status, model.progress) })
      : t(`model.status.${phase}`);
  return (
    <span className={`status-chip status-chip--${phase}`} data-testid="model-status" data-phase={phase}>
      {text}
    </span>
  );
}
