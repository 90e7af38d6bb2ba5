import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconFace, IconUser } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { modelKeys, modelsApi, modelPhase } from '../../models';
import '../generations.css';

/**
 * Choose the digital model to put in the picture, with how many reference photos each was built
 * from. Trained models can be chosen, and so can models in training (made from their checked
 * photos until the training is done); the others show where they are (not trained yet). The first
 * trained model (else the first in training) is chosen when none is (or the chosen one is not
 * usable). Without any model it offers the way to /upload/.
 */
export function ModelPicker({
  value,
  onChange,
  enabled,
  error,
}: {
  value: string | null;
  onChange(uuid: string): void;
  enabled: boolean;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const models = useQuery({
    queryKey: modelKeys.list(),
    queryFn: modelsApi.list,
    enabled,
    retry: false,
  });
  const list = models.data?.results ?? [];
  const usable = list.filter((model) => isUsable(modelPhase(model.status)));
  const firstUsable = usable.find((model) => modelPhase(model.status) === 'ready') ?? usable[0];
  const fallback = usable.some((model) => model.uuid === value) ? null : (firstUsable?.uuid ?? null);
  useEffect(() => {
    if (fallback) onChange(fallback);
  }, [fallback, onChange]);

  return (
    <div className={`field${error ? ' field--invalid' : ''}`} data-testid="model-picker">
      <span className="field__title" id="model-title">
        {t('generate.model')}
      </span>
      {models.isLoading ? (
        <div className="center">
          <Spinner size={22} label={t('common.loading')} />
        </div>
      ) : models.isError && !models.data ? (
        // Not "no model yet": that would invite paying for a training the user already has.
        <LoadError query={models} />
      ) : usable.length === 0 ? (
        <EmptyState
          icon={<IconFace size={26} />}
          title={t('generate.modelEmptyTitle')}
          text={t('generate.modelEmptyText')}
          action={
            <ButtonLink to="/upload/" theme="primary-outline" size="sm">
              {t('generate.modelCreate')}
            </ButtonLink>
          }
        />
      ) : (
        <div className="list" role="radiogroup" aria-labelledby="model-title">
          {list.map((model) => {
            const phase = modelPhase(model.status);
            const isReady = phase === 'ready';
            const canChoose = isUsable(phase);
            return (
              <button
                key={model.uuid}
                type="button"
                role="radio"
                aria-checked={value === model.uuid}
                disabled={!canChoose}
                className={`list__row${value === model.uuid ? ' is-active' : ''}`}
                onClick={() => onChange(model.uuid)}
                data-testid="model-option"
              >
                {model.cover_url ? (
                  <img
                    src={model.cover_url}
                    alt=""
                    className="list__icon"
                    style={{ objectFit: 'cover' }}
                    width={36}
                    height={36}
                    loading="lazy"
                  />
                ) : (
                  <span className="list__icon">
                    <IconUser size={20} />
                  </span>
                )}
                <span className="list__label">
                  {model.name || t('generate.modelUnnamed')}
                  <span className="list__sub">
                    {isReady
                      ? t('generate.references', { count: model.reference_count })
                      : phase === 'training'
                        ? t('generate.modelTrainingUsable')
                        : t('generate.modelNotReady')}
                  </span>
                </span>
              </button>
            );
          })}
        </div>
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A model faces are made from: trained, or in training (from its checked photos meanwhile). */
const isUsable = (phase: ReturnType<typeof modelPhase>) => phase === 'ready' || phase === 'training';
