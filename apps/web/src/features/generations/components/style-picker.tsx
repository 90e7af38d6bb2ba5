import { useTranslation } from 'react-i18next';
import { STYLES } from '@mirra/contracts';
import type { TStyle } from '../../../lib/api-types';
import '../generations.css';

/** The styles of the styling mode, as a single-choice group. */
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
    <div className="field">
      <span className="field__title" id="style-title">
        {t('generate.style')}
      </span>
      <div className="style-grid" role="radiogroup" aria-labelledby="style-title">
        {STYLES.map((style) => (
          <button
            key={style}
            type="button"
            role="radio"
            aria-checked={value === style}
            className={`style-option style-option--${style}${value === style ? ' is-active' : ''}`}
            data-testid={`style-${style}`}
            onClick={() => onChange(style)}
          >
            <span className="style-option__swatch" aria-hidden="true" />
            <span className="style-option__name">{t(`styles.${style}`)}</span>
          </button>
        ))}
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
