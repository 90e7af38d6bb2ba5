import { useTranslation } from 'react-i18next';
import { IMAGE_ASPECTS, IMAGE_COUNT_MAX, type TImageAspect } from '@mirra/contracts';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import '../generations.css';

const COUNTS = Array.from({ length: IMAGE_COUNT_MAX }, (_, index) => index + 1);
/** "Auto" keeps the photo's shape (or the engine's own for a scene). */
const AUTO = 'auto';

/**
 * How many pictures a run makes (each priced, and refunded if it fails, on its own) and their
 * frame shape, as segmented radio groups; `count` is left out where the mode makes one.
 */
export function PictureSettings({
  count,
  aspect,
  onCount,
  onAspect,
  autoLabel,
}: {
  count?: number;
  aspect: TImageAspect | null;
  onCount?(count: number): void;
  onAspect(aspect: TImageAspect | null): void;
  /** What "auto" means here: the photo's own shape, or the scene's. */
  autoLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {count !== undefined && onCount && (
        <SegmentedChoice
          title={t('generate.pictureCount')}
          value={count}
          onChange={onCount}
          options={COUNTS.map((value) => ({
            value,
            label: String(value),
            testId: `picture-count-${value}`,
            ariaLabel: t('generate.pictureCountOption', { n: value }),
          }))}
        />
      )}
      <SegmentedChoice
        title={t('generate.pictureAspect')}
        className="choice-grid"
        itemClassName="choice-grid__item"
        value={aspect ?? AUTO}
        onChange={(value) => onAspect(value === AUTO ? null : (value as TImageAspect))}
        options={[
          { value: AUTO, label: autoLabel, testId: 'picture-aspect-auto' },
          ...IMAGE_ASPECTS.map((shape) => ({
            value: shape,
            label: shape,
            testId: `picture-aspect-${shape.replace(':', 'x')}`,
            ariaLabel: t(`generate.pictureAspects.${shape.replace(':', 'x')}`),
          })),
        ]}
      />
    </>
  );
}
