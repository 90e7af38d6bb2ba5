import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { modeDeclaration } from '@mirra/contracts';
import type { TGenerationMode, TModelSummary } from '../../../lib/api-types';
import { usePublicConfig } from '../../auth';
import { modelKeys, modelPhase, modelsApi } from '../../models';
import '../generations.css';

/**
 * Which engine will make this mode and what it can do, said before the price: the server's own
 * declaration (/api/config/), worded here. Nothing is shown until the config has loaded. For a mode
 * made from a digital model, also how the likeness is made with the chosen one: from its photos at
 * once while it trains (with when the trained model will be ready), or by the trained model.
 */
export function EngineLine({ mode, modelUuid = null }: { mode: TGenerationMode; modelUuid?: string | null }) {
  const { t } = useTranslation();
  const offer = usePublicConfig().data?.engines?.[mode];
  const takesModel = modeDeclaration(mode).inputs.model;
  // The picker's own list (same query key): no second request.
  const models = useQuery({
    queryKey: modelKeys.list(),
    queryFn: modelsApi.list,
    enabled: takesModel && modelUuid !== null,
    retry: false,
  });
  if (!offer) return null;
  const chosen = takesModel ? models.data?.results.find((model) => model.uuid === modelUuid) : undefined;
  return (
    <p className="engine-line" data-testid="engine-line" data-ai={offer.ai ? 'true' : 'false'}>
      <strong>{t(offer.ai ? 'engine.ai' : 'engine.offline')}</strong>{' '}
      {offer.abilities.map((ability) => t(`engine.abilities.${ability}`)).join(' ')}
      {chosen && <LikenessLine model={chosen} />}
    </p>
  );
}

/** Minutes until a model in training is ready, from its progress and its engine's usual time. */
export function minutesUntilTrained(model: Pick<TModelSummary, 'progress' | 'training_seconds'>): number {
  const left = (model.training_seconds * (100 - Math.min(100, Math.max(0, model.progress)))) / 100;
  return Math.max(1, Math.ceil(left / 60));
}

function LikenessLine({ model }: { model: TModelSummary }) {
  const { t } = useTranslation();
  const phase = modelPhase(model.status);
  if (phase !== 'training' && phase !== 'ready') return null;
  return (
    <>
      {' '}
      <span data-testid="likeness-line" data-likeness={phase === 'training' ? 'instant' : 'trained'}>
        {phase === 'training'
          ? t('engine.likeness.instant', { minutes: minutesUntilTrained(model) })
          : t('engine.likeness.trained')}
      </span>
    </>
  );
}
