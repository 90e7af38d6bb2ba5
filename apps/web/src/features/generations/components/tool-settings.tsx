import { useTranslation } from 'react-i18next';
import {
  BACKGROUND_KINDS,
  EXTEND_DIRECTIONS,
  UPSCALE_FACTORS,
  UPSCALE_FACTOR_DEFAULT,
  type TBackgroundKind,
  type TExtendDirection,
  type TUpscaleFactor,
} from '@mirra/contracts';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import type { GenerationDraft } from '../generation-draft';
import '../generations.css';

type Settings = GenerationDraft['settings'];

/** Colours offered for a plain background, besides any other picked in the colour field. */
const SWATCHES = ['#ffffff', '#f2efe9', '#1d1d1f', '#3b82f6'];

/**
 * The plain settings of a tool (the ones a mode declares): the upscale factor; what goes behind
 * the person (nothing, a colour, the photo blurred, a described scene) with the colour; where an
 * extend adds canvas.
 */
export function ToolSettings({
  needs,
  settings,
  onChange,
  error,
}: {
  needs: { scale: boolean; background: boolean; extend: boolean };
  settings: Settings;
  onChange(next: Settings): void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  const background = settings.background ?? 'transparent';
  return (
    <>
      {needs.scale && (
        <SegmentedChoice
          title={t('tools.scale')}
          value={settings.scale ?? (UPSCALE_FACTOR_DEFAULT as TUpscaleFactor)}
          onChange={(scale) => onChange({ ...settings, scale })}
          options={UPSCALE_FACTORS.map((scale) => ({
            value: scale,
            label: `×${scale}`,
            testId: `tool-scale-${scale}`,
            ariaLabel: t('tools.scaleOption', { scale }),
          }))}
        />
      )}
      {needs.background && (
        <SegmentedChoice
          title={t('tools.background')}
          value={background}
          onChange={(kind: TBackgroundKind) =>
            onChange({
              ...settings,
              background: kind,
              colour: kind === 'colour' ? (settings.colour ?? SWATCHES[0]) : undefined,
            })
          }
          options={BACKGROUND_KINDS.map((kind) => ({
            value: kind,
            label: t(`tools.backgrounds.${kind}`),
            testId: `tool-background-${kind}`,
          }))}
        >
          {background === 'colour' && (
            <div className="tool-colours" role="group" aria-label={t('tools.colour')}>
              {SWATCHES.map((colour) => (
                <button
                  key={colour}
                  type="button"
                  className="tool-colours__swatch"
                  style={{ background: colour }}
                  aria-pressed={settings.colour === colour}
                  aria-label={colour}
                  onClick={() => onChange({ ...settings, colour })}
                />
              ))}
              <input
                type="color"
                className="tool-colours__picker"
                value={settings.colour ?? SWATCHES[0]}
                aria-label={t('tools.colourOther')}
                data-testid="tool-colour"
                onChange={(event) => onChange({ ...settings, colour: event.target.value })}
              />
            </div>
          )}
          {error && (
            <p className="field__error" role="alert">
              {error}
            </p>
          )}
        </SegmentedChoice>
      )}
      {needs.extend && (
        <SegmentedChoice
          title={t('tools.extend')}
          className="choice-grid choice-grid--3"
          itemClassName="choice-grid__item"
          value={settings.extend ?? 'all'}
          onChange={(extend: TExtendDirection) => onChange({ ...settings, extend })}
          options={EXTEND_DIRECTIONS.map((direction) => ({
            value: direction,
            label: t(`tools.directions.${direction}`),
            testId: `tool-extend-${direction}`,
          }))}
        />
      )}
    </>
  );
}
