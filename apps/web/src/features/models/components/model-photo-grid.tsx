import { useTranslation } from 'react-i18next';
import { IconAlert, IconCheck, IconClose, IconRepeat, IconTrash } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { ProgressBar } from '../../../components/ui/progress-bar';
import type { TModelPhoto } from '../../../lib/api-types';
import { describeVerdict } from '../model-photos';
import type { UploadItem } from '../upload-queue';
import '../models.css';

const THUMB_SIZE = 256;

/**
 * The model's photos with their verdicts — a green check, or a red mark and the reasons in the
 * user's language — followed by the photos still on their way, each with its own progress bar.
 */
export function ModelPhotoGrid({
  photos,
  uploads,
  deleting,
  canDelete,
  onDelete,
  onRetry,
  onDismiss,
}: {
  photos: readonly TModelPhoto[];
  uploads: readonly UploadItem[];
  /** Photos whose deletion is on its way. */
  deleting: ReadonlySet<string>;
  canDelete: boolean;
  onDelete(photoUuid: string): void;
  onRetry(id: string): void;
  onDismiss(id: string): void;
}) {
  const { t } = useTranslation();
  if (photos.length === 0 && uploads.length === 0) return null;
  return (
    <ul className="model-photos" aria-label={t('model.photos')} data-testid="model-photos">
      {photos.map((photo) => {
        const verdict = describeVerdict(t, photo);
        return (
          <li
            key={photo.uuid}
            className={`model-photo model-photo--${photo.ok ? 'good' : 'problem'}`}
            data-testid="model-photo"
            data-state={photo.ok ? 'good' : 'problem'}
          >
            <div className="model-photo__frame">
              <img
                src={photo.thumbnail_url}
                alt={t('model.photoAlt')}
                className="model-photo__img"
                width={THUMB_SIZE}
                height={THUMB_SIZE}
                loading="lazy"
              />
              <span className={`model-photo__badge model-photo__badge--${photo.ok ? 'good' : 'problem'}`}>
                {photo.ok ? <IconCheck size={14} /> : <IconAlert size={14} />}
              </span>
              {canDelete && (
                <button
                  type="button"
                  className="model-photo__action"
                  aria-label={t('model.photoDelete')}
                  title={t('model.photoDelete')}
                  disabled={deleting.has(photo.uuid)}
                  onClick={() => onDelete(photo.uuid)}
                  data-testid="model-photo-delete"
                >
                  {deleting.has(photo.uuid) ? <Spinner size={14} /> : <IconTrash size={15} />}
                </button>
              )}
            </div>
            <PhotoCaption problems={verdict.problems} tips={verdict.tips} />
          </li>
        );
      })}
      {uploads.map((item) => (
        <UploadTile key={item.id} item={item} onRetry={onRetry} onDismiss={onDismiss} />
      ))}
    </ul>
  );
}

function PhotoCaption({ problems, tips }: { problems: string[]; tips: string[] }) {
  const { t } = useTranslation();
  if (problems.length) {
    return (
      <p className="model-photo__caption model-photo__caption--problem" data-testid="model-photo-reason">
        {problems.join(', ')}
      </p>
    );
  }
  return (
    <p className="model-photo__caption">
      {t('model.photoGood')}
      {tips.length > 0 && <span className="model-photo__tips"> · {tips.join(', ')}</span>}
    </p>
  );
}

function UploadTile({
  item,
  onRetry,
  onDismiss,
}: {
  item: UploadItem;
  onRetry(id: string): void;
  onDismiss(id: string): void;
}) {
  const { t } = useTranslation();
  const percent = Math.round(item.progress * 100);
  // A file the server judged but did not store (not a readable photo) stays here with its reason.
  const verdict = item.status === 'judged' && item.verdict ? describeVerdict(t, item.verdict) : null;
  const isProblem = item.status === 'failed' || (verdict !== null && verdict.problems.length > 0);
  const state = item.status === 'judged' ? (isProblem ? 'problem' : 'good') : item.status;
  return (
    <li
      className={`model-photo model-photo--${isProblem ? 'problem' : item.status === 'judged' ? 'good' : 'pending'}`}
      data-testid="model-photo"
      data-state={state}
      data-name={item.name}
    >
      <div className="model-photo__frame">
        {item.preview ? (
          <img src={item.preview} alt={t('model.photoAlt')} className="model-photo__img" />
        ) : (
          <span className="model-photo__placeholder">
            <IconAlert size={22} />
          </span>
        )}
        {item.status === 'judged' && (
          <span className={`model-photo__badge model-photo__badge--${isProblem ? 'problem' : 'good'}`}>
            {isProblem ? <IconAlert size={14} /> : <IconCheck size={14} />}
          </span>
        )}
        {(item.status === 'judged' || item.status === 'failed') && (
          <button
            type="button"
            className="model-photo__action"
            aria-label={t('model.photoDismiss')}
            title={t('model.photoDismiss')}
            onClick={() => onDismiss(item.id)}
          >
            <IconClose size={15} />
          </button>
        )}
        {(item.status === 'uploading' || item.status === 'queued') && (
          <ProgressBar
            value={percent}
            label={t('model.uploadProgressLabel', { name: item.name })}
            className="model-photo__bar"
            testId="model-photo-progress"
          />
        )}
        {item.status === 'checking' && (
          <span className="model-photo__checking">
            <Spinner size={22} />
          </span>
        )}
      </div>
      {item.status === 'failed' ? (
        <div className="model-photo__caption model-photo__caption--problem">
          <span data-testid="model-photo-reason">{item.error ?? t('model.photoFailed')}</span>{' '}
          <button type="button" className="link" onClick={() => onRetry(item.id)}>
            <IconRepeat size={12} /> {t('model.photoRetry')}
          </button>
        </div>
      ) : verdict ? (
        <PhotoCaption problems={verdict.problems} tips={verdict.tips} />
      ) : (
        <p className="model-photo__caption" aria-live="polite">
          {item.status === 'queued'
            ? t('model.photoQueued')
            : item.status === 'uploading'
              ? t('model.photoUploading', { percent })
              : t('model.photoChecking')}
        </p>
      )}
    </li>
  );
}
