import { useTranslation } from 'react-i18next';
import { VIDEO_ASPECTS, VIDEO_DURATIONS, type TVideoAspect } from '@mirra/contracts';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
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
      <SegmentedChoice
        title={t('generate.videoDuration')}
        value={duration}
        onChange={onDuration}
        options={VIDEO_DURATIONS.map((seconds) => ({
          value: seconds as number,
          label: t('generate.videoSeconds', { count: seconds }),
          testId: `video-duration-${seconds}`,
        }))}
      />
      <SegmentedChoice
        title={t('generate.videoAspect')}
        value={aspect}
        onChange={onAspect}
        options={VIDEO_ASPECTS.map((shape) => ({
          value: shape,
          label: shape,
          testId: `video-aspect-${shape.replace(':', 'x')}`,
          ariaLabel: t(`generate.videoAspects.${shape.replace(':', 'x')}`),
        }))}
      />
    </>
  );
}
