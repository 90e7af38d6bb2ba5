import { useTranslation } from 'react-i18next';
import { STYLES } from '@mirra/contracts';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import type { TStyle } from '../../../lib/api-types';
import '../generations.css';

const STYLE_TILES = {
  group: 'style-grid',
  item: (style: TStyle | null) => `style-option style-option--${style}`,
};

/** The styles of the styling mode, as a single-choice group of tiles. */
export function StylePicker({
  value,
  onChange,
  error,
}: {
  value: TStyle | null;
  onChange(style: TStyle): void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <SegmentedChoice<TStyle | null>
      title={t('generate.style')}
      value={value}
      onChange={(style) => style && onChange(style)}
      classes={STYLE_TILES}
      options={STYLES.map((style) => ({
        value: style,
        label: (
          <>
            <span className="style-option__swatch" aria-hidden="true" />
            <span className="style-option__name">{t(`styles.${style}`)}</span>
          </>
        ),
        testId: `style-${style}`,
      }))}
    >
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </SegmentedChoice>
  );
}
