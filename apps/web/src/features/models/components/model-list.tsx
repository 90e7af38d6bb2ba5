import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconChevron, IconFace } from '../../../components/ui/icons';
import { Section } from '../../../components/ui/page';
import { modelKeys, modelsApi } from '../api/models.api';
import { modelPhase } from '../model-status';
import { ModelStatusChip } from './model-status-chip';
import '../models.css';

/**
 * My models with their state, newest first, so coming back later finds the one collecting photos,
 * the training (with its percent) or the ready model. `exclude` leaves out the one on screen.
 */
export function ModelList({ exclude }: { exclude?: string | null }) {
  const { t } = useTranslation();
  const models = useQuery({
    queryKey: modelKeys.list(),
    queryFn: modelsApi.list,
    // A training in the list moves on by itself.
    refetchInterval: (q) =>
      q.state.data?.results.some((model) => modelPhase(model.status) === 'training') ? 5000 : false,
  });
  const list = (models.data?.results ?? []).filter((model) => model.uuid !== exclude);
  if (list.length === 0) return null;
  return (
    <Section title={t('upload.yourModels')}>
      <div className="list" data-testid="model-list">
        {list.map((model) => (
          <Link
            key={model.uuid}
            to={`/model/${model.uuid}/`}
            className="list__row"
            data-testid="model-list-item"
          >
            {model.cover_url ? (
              <img
                src={model.cover_url}
                alt=""
                className="model-cover"
                width={40}
                height={40}
                loading="lazy"
              />
            ) : (
              <span className="list__icon">
                <IconFace size={20} />
              </span>
            )}
            <span className="list__label">
              {model.name}
              <span className="list__sub">
                {modelPhase(model.status) === 'collecting'
                  ? t('model.goodCount', { count: model.reference_count, min: model.min_photos })
                  : t('model.references', { count: model.reference_count })}
              </span>
            </span>
            <ModelStatusChip model={model} />
            <IconChevron size={18} />
          </Link>
        ))}
      </div>
    </Section>
  );
}
