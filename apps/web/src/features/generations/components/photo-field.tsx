import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconUpload } from '../../../components/ui/icons';
import { ProgressBar } from '../../../components/ui/progress-bar';
import type { TGenerationMode, TUpload } from '../../../lib/api-types';
import type { PhotoUploadState } from '../hooks/use-photo-upload';
import { PHOTO_ACCEPT } from '../../../lib/upload-errors';
import '../generations.css';

interface PhotoFieldProps {
  mode: TGenerationMode;
  photo: TUpload | null;
  upload: PhotoUploadState;
  /** Preparing a result as the source photo (it is fetched, then uploaded). */
  preparing?: boolean;
  error?: string | null;
  onChoose(file: File): void;
  onRemove(): void;
  onRetry(): void;
  /** The drop zone's title, when not the mode's photo (a try-on's garment). */
  label?: string;
  /** Prefix of the test ids (`photo` unless a second photo field is on the form). */
  testIdPrefix?: string;
  /** A small preview: the photo is shown large below it (painted over for an inpaint). */
  compact?: boolean;
}

/** The source photo: a drop zone, then an upload with a real progress bar, then the photo itself. */
export function PhotoField({
  mode,
  photo,
  upload,
  preparing,
  error,
  onChoose,
  onRemove,
  onRetry,
  label,
  testIdPrefix = 'photo',
  compact = false,
}: PhotoFieldProps) {
  const { t } = useTranslation();
  const input = (
    <input
      type="file"
      accept={PHOTO_ACCEPT}
      className="visually-hidden"
      data-testid={`${testIdPrefix}-input`}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        if (file) onChoose(file);
      }}
    />
  );

  if (upload.status === 'uploading' || upload.status === 'waiting' || preparing) {
    const percent = upload.status === 'uploading' ? Math.round(upload.progress * 100) : 0;
    const preview = upload.status === 'idle' || upload.status === 'failed' ? null : upload.preview;
    return (
      <div className="photo-field" data-testid={`${testIdPrefix}-uploading`}>
        <div className="photo-field__frame">
          {preview ? (
            <img src={preview} alt="" className="photo-field__img photo-field__img--dim" />
          ) : (
            <IconUpload size={28} />
          )}
        </div>
        {upload.status === 'waiting' ? (
          <p className="photo-field__note">{t('generate.photoWaiting')}</p>
        ) : (
          <div className="photo-field__progress">
            <span>
              {upload.status === 'uploading'
                ? t('generate.photoUploading', { percent })
                : t('generate.photoPreparing')}
            </span>
            <ProgressBar value={percent} label={t('generate.photoUploadingLabel')} testId="upload-progress" />
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="photo-field">
      {photo ? (
        <div
          className={compact ? 'photo-field__chosen photo-field__chosen--compact' : 'photo-field__chosen'}
          data-testid={`${testIdPrefix}-preview`}
        >
          <img
            src={photo.url}
            alt={t('generate.photoAlt')}
            width={photo.width}
            height={photo.height}
            className="photo-field__img"
          />
          <div className="photo-field__actions">
            <label className="btn btn--light btn--sm">
              {input}
              <span className="btn__label">{t('generate.photoReplace')}</span>
            </label>
            <Button theme="light" size="sm" onClick={onRemove}>
              {t('generate.photoRemove')}
            </Button>
          </div>
        </div>
      ) : (
        <label className="dropzone" data-testid={`${testIdPrefix}-dropzone`}>
          {input}
          <IconUpload size={28} />
          <span className="dropzone__title">{label ?? t(`modes.${mode}.photo`)}</span>
          <span className="dropzone__text">{t('generate.photoHint')}</span>
        </label>
      )}
      {upload.status === 'failed' && (
        <div data-testid={`${testIdPrefix}-error`}>
          <Alert>{upload.message}</Alert>
          {upload.canRetry && (
            <Button theme="light" size="sm" onClick={onRetry} className="photo-field__retry">
              {t('generate.photoRetry')}
            </Button>
          )}
        </div>
      )}
      {error && upload.status !== 'failed' && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
