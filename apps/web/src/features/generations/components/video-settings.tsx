import { useTranslation } from 'react-i18next';
import { VIDEO_ASPECTS, VIDEO_DURATIONS, type TVideoAspect } from '@mirra/contracts';
import '../generations.css';

/** The video's length (priced per second) and frame shape, as two segmented radio groups. */
export function VideoSettings({
  duration,
  aspect,
  onDuration,
  onAspect,
}: {
  duration: number;
  aspect: TVideoAspect;
  onDuration(seconds: number): void;
  onAspect(aspect: TVideoAspect): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="field">
        <span className="field__title" id="video-duration-title">
          {t('generate.videoDuration')}
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby="video-duration-title">
          {VIDEO_DURATIONS.map((seconds) => (
            <button
              key={seconds}
              type="button"
              role="radio"
              aria-checked={duration === seconds}
              className={`segmented__item${duration === seconds ? ' is-active' : ''}`}
              onClick={() => onDuration(seconds)}
              data-testid={`video-duration-${seconds}`}
            >
              {t('generate.videoSeconds', { count: seconds })}
            </button>
          ))}
        </div>
      </div>
      <div className="field">
        <span className="field__title" id="video-aspect-title">
          {t('generate.videoAspect')}
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby="video-aspect-title">
          {VIDEO_ASPECTS.map((shape) => (
            <button
              key={shape}
              type="button"
              role="radio"
              aria-checked={aspect === shape}
              className={`segmented__item${aspect === shape ? ' is-active' : ''}`}
              onClick={() => onAspect(shape)}
              data-testid={`video-aspect-${shape.replace(':', 'x')}`}
              aria-label={t(`generate.videoAspects.${shape.replace(':', 'x')}`)}
            >
              {shape}
            </button>
          ))}
        </div>
      </div>
    </>
  );
}
