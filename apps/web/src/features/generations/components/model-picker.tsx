import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { IconFace, IconUser } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { generationKeys, generationsApi } from '../api/generations.api';

/**
 * Choose the digital model to put in the picture, with how many reference photos each was built
 * from. Without one (or while the server has no models yet) it offers the way to /upload/.
 */
export function ModelPicker({
  value,
  onChange,
  enabled,
}: {
  value: string | null;
  onChange(uuid: string): void;
  enabled: boolean;
}) {
  const { t } = useTranslation();
  const models = useQuery({
    queryKey: generationKeys.models(),
    queryFn: generationsApi.models,
    enabled,
    retry: false,
  });
  const list = models.data ?? [];
  return (
    <div className="field" data-testid="model-picker">
      <span className="field__title" id="model-title">
        {t('generate.model')}
      </span>
      {models.isLoading ? (
        <div className="center">
          <Spinner size={22} label={t('common.loading')} />
        </div>
      ) : list.length === 0 ? (
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
          {list.map((model) => (
            <button
              key={model.uuid}
              type="button"
              role="radio"
              aria-checked={value === model.uuid}
              className={`list__row${value === model.uuid ? ' is-active' : ''}`}
              onClick={() => onChange(model.uuid)}
            >
              <span className="list__icon">
                <IconUser size={20} />
              </span>
              <span className="list__label">
                {model.name || t('generate.modelUnnamed')}
                <span className="list__sub">{t('generate.references', { count: model.references })}</span>
              </span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
