import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MODEL_MIN_PHOTOS } from '@mirra/contracts';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { IconCheck, IconUpload } from '../../components/ui/icons';
import { PageFrame, PageHeading } from '../../components/ui/page';

/** Training runs in a later release; the button stays off until the server offers it. */
const TRAINING_AVAILABLE = false;
const CATEGORIES = ['female', 'male', 'custom'] as const;
const TIPS = ['tips.count', 'tips.light', 'tips.glasses', 'tips.angles', 'tips.alone'] as const;

/**
 * Model creation (spec §2): the intro with tips, the category and the photo picker. Kept alive:
 * chosen photos and the category survive a trip to another page.
 */
export function Page() {
  const { t } = useTranslation();
  const [category, setCategory] = useState<(typeof CATEGORIES)[number]>('female');
  const [files, setFiles] = useState<File[]>([]);
  const previews = useMemo(() => files.slice(0, 12).map((file) => URL.createObjectURL(file)), [files]);
  const enough = files.length >= MODEL_MIN_PHOTOS;
  return (
    <PageFrame width="narrow" testId="upload-page">
      <PageHeading title={t('upload.title')} subtitle={t('upload.subtitle', { count: MODEL_MIN_PHOTOS })} />
      <ul className="tips">
        {TIPS.map((tip) => (
          <li key={tip} className="tips__item">
            <IconCheck size={16} />
            {t(`upload.${tip}`, { count: MODEL_MIN_PHOTOS })}
          </li>
        ))}
      </ul>
      <div className="segmented" role="radiogroup" aria-label={t('upload.category')}>
        {CATEGORIES.map((name) => (
          <button
            key={name}
            type="button"
            role="radio"
            aria-checked={category === name}
            className={`segmented__item${category === name ? ' is-active' : ''}`}
            onClick={() => setCategory(name)}
          >
            {t(`upload.categories.${name}`)}
          </button>
        ))}
      </div>
      <label className="dropzone" data-testid="upload-dropzone">
        <IconUpload size={28} />
        <span className="dropzone__title">{t('upload.choose')}</span>
        <span className="dropzone__text">
          {t('upload.selected', { count: files.length, total: MODEL_MIN_PHOTOS })}
        </span>
        <input
          type="file"
          accept="image/*"
          multiple
          className="visually-hidden"
          onChange={(event) => setFiles((current) => [...current, ...Array.from(event.target.files ?? [])])}
        />
      </label>
      {previews.length > 0 && (
        <div className="thumb-grid">
          {previews.map((src) => (
            <img key={src} src={src} alt="" className="thumb-grid__img" width={96} height={96} />
          ))}
        </div>
      )}
      <div className="progress" aria-hidden="true">
        <span style={{ width: `${Math.min(100, (files.length / MODEL_MIN_PHOTOS) * 100)}%` }} />
      </div>
      <Alert tone="info">{t('upload.unavailable')}</Alert>
      <Button theme="primary" size="lg" block disabled={!enough || !TRAINING_AVAILABLE}>
        {t('upload.start')}
      </Button>
    </PageFrame>
  );
}
