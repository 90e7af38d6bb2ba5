import { useTranslation } from 'react-i18next';
import { MODEL_CATEGORIES } from '@mirra/contracts';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
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
    <SegmentedChoice
      title={t('upload.category')}
      value={value}
      onChange={onChange}
      options={MODEL_CATEGORIES.map((name) => ({
        value: name,
        label: t(`upload.categories.${name}`),
        testId: `category-${name}`,
      }))}
    />
  );
}
