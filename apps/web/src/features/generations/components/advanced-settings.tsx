import { useState } from 'react';
import { useUniqueId } from '../../../lib/use-unique-id';
import { useTranslation } from 'react-i18next';
import { GUIDANCE_MAX, GUIDANCE_MIN } from '@mirra/contracts';
import { IconChevron, IconSettings } from '../../../components/ui/icons';
import { TextInput } from '../../../components/ui/text-input';
import '../generations.css';

/** Advanced settings: guidance strength (how closely to follow the description) and the seed. */
export function AdvancedSettings({
  guidance,
  seed,
  seedError,
  onGuidance,
  onSeed,
}: {
  guidance: number;
  seed: string;
  seedError?: string | null;
  onGuidance(value: number): void;
  onSeed(value: string): void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(Boolean(seed) || Boolean(seedError));
  const panelId = useUniqueId();
  const sliderId = useUniqueId();
  return (
    <div className={`advanced${open ? ' is-open' : ''}`}>
      <button
        type="button"
        className="advanced__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        data-testid="advanced-toggle"
      >
        <IconSettings size={18} />
        <span>{t('generate.advanced')}</span>
        <IconChevron size={18} className="advanced__chevron" />
      </button>
      {open && (
        <div className="advanced__panel" id={panelId}>
          <div className="field">
            <label className="field__title advanced__row" htmlFor={sliderId}>
              <span>{t('generate.guidance')}</span>
              <output className="advanced__value" htmlFor={sliderId}>
                {guidance}
              </output>
            </label>
            <input
              id={sliderId}
              type="range"
              className="range"
              min={GUIDANCE_MIN}
              max={GUIDANCE_MAX}
              step={0.5}
              value={guidance}
              onChange={(event) => onGuidance(Number(event.target.value))}
              data-testid="guidance"
            />
            <p className="field__hint">{t('generate.guidanceHint')}</p>
          </div>
          <TextInput
            title={t('generate.seed')}
            value={seed}
            onValueChange={(value) => onSeed(value.replace(/\D/g, ''))}
            inputMode="numeric"
            placeholder={t('generate.seedPlaceholder')}
            hint={t('generate.seedHint')}
            error={seedError}
            data-testid="seed"
          />
        </div>
      )}
    </div>
  );
}
