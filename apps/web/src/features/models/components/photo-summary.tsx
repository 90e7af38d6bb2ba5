import { useTranslation } from 'react-i18next';
import { IconCheck, IconInfo } from '../../../components/ui/icons';
import { ProgressBar } from '../../../components/ui/progress-bar';
import type { TModelPhoto } from '../../../lib/api-types';
import { MIX_TIPS, needsVariety, photosStillNeeded, summarizeTipMix } from '../model-photos';
import '../models.css';

/**
 * How far the set is: good photos toward the minimum ("Good photos: 12 of 15 needed"), how many
 * cannot be used, the mix the model wants with a hint for each kind still missing, and a request
 * for variety when most photos share one pose and light.
 */
export function PhotoSummary({
  photos,
  goodCount,
  minPhotos,
}: {
  photos: readonly TModelPhoto[];
  goodCount: number;
  minPhotos: number;
}) {
  const { t } = useTranslation();
  const needed = photosStillNeeded(goodCount, minPhotos);
  const unusable = photos.filter((photo) => !photo.ok).length;
  const mix = summarizeTipMix(photos);
  const counter = t('model.goodCount', { count: goodCount, min: minPhotos });
  return (
    <div className="photo-summary" data-testid="photo-summary">
      <div className="photo-summary__head">
        <span data-testid="good-count">{counter}</span>
        {unusable > 0 && (
          <span className="photo-summary__bad" data-testid="bad-count">
            {t('model.notUsable', { count: unusable })}
          </span>
        )}
      </div>
      <ProgressBar value={goodCount} max={minPhotos} label={counter} />
      <p className="muted-note" data-testid="photos-needed">
        {needed > 0 ? t('model.needMore', { count: needed }) : t('model.enough')}
      </p>
      <div className="photo-summary__mix" aria-label={t('model.mixTitle')} data-testid="tip-mix">
        {MIX_TIPS.map((tip) => (
          <span
            key={tip}
            className={`mix-chip${mix.missing.includes(tip) ? '' : ' mix-chip--done'}`}
            data-testid={`mix-${tip}`}
          >
            {!mix.missing.includes(tip) && <IconCheck size={14} />}
            {t(`modelPhotos.tips.${tip}`)}
            <b>{mix.counts[tip]}</b>
          </span>
        ))}
      </div>
      {needsVariety(photos) && (
        <p className="photo-summary__variety" data-testid="variety-hint">
          <IconInfo size={15} />
          {t('model.variety')}
        </p>
      )}
      {mix.missing.length > 0 ? (
        <ul className="photo-summary__hints">
          {mix.missing.map((tip) => (
            <li key={tip}>
              <IconInfo size={15} />
              {t(`model.mixHints.${tip}`)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted-note">{t('model.mixGood')}</p>
      )}
    </div>
  );
}
