import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { IconUpload } from '../../../components/ui/icons';
import { hasOneFilePicker } from '../../../lib/telegram';
import { PHOTO_ACCEPT } from '../../../lib/upload-errors';
import '../models.css';

/**
 * The photo drop zone: many photos per pick, except on Android inside Telegram, whose file dialog
 * hands over one file at a time — there it asks for one per pick and says so.
 */
export function PhotoPicker({
  title,
  disabled,
  onChoose,
}: {
  title: string;
  disabled?: boolean;
  onChoose(files: File[]): void;
}) {
  const { t } = useTranslation();
  const oneAtATime = hasOneFilePicker();
  return (
    <div className="stack">
      <label className={`dropzone${disabled ? ' dropzone--static' : ''}`} data-testid="model-photo-picker">
        <IconUpload size={28} />
        <span className="dropzone__title">{title}</span>
        <span className="dropzone__text">
          {oneAtATime ? t('upload.chooseOneHint') : t('upload.chooseHint')}
        </span>
        <input
          type="file"
          accept={PHOTO_ACCEPT}
          multiple={!oneAtATime}
          disabled={disabled}
          className="visually-hidden"
          data-testid="model-photo-input"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            // The same photo may be chosen again after it was removed.
            event.target.value = '';
            if (files.length) onChoose(files);
          }}
        />
      </label>
      {oneAtATime && (
        <div data-testid="one-file-notice">
          <Alert tone="info">{t('messages.androidOneFile')}</Alert>
        </div>
      )}
    </div>
  );
}
