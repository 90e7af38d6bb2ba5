import { useTranslation } from 'react-i18next';
import { MODEL_CATEGORIES } from '@mirra/contracts';
import type { TModelCategory } from '../../../lib/api-types';

/** The model's category: female, male or custom, as one segmented radio group. */
export function CategoryPicker({
  value,
  onChange,
}: {
  value: TModelCategory;
  onChange(category: TModelCategory): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <span className="field__title" id="model-category-title">
        {t('upload.category')}
      </span>
      <div className="segmented" role="radiogroup" aria-labelledby="model-category-title">
        {MODEL_CATEGORIES.map((name) => (
          <button
            key={name}
            type="button"
            role="radio"
            aria-checked={value === name}
            className={`segmented__item${value === name ? ' is-active' : ''}`}
            onClick={() => onChange(name)}
            data-testid={`category-${name}`}
          >
            {t(`upload.categories.${name}`)}
          </button>
        ))}
      </div>
    </div>
  );
}
