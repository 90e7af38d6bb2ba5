import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button, ButtonLink } from '../../components/ui/button';
import { IconUpload } from '../../components/ui/icons';
import { PageFrame } from '../../components/ui/page';
import { isGenerationMode, MODE_ART, MODE_ICONS } from '../../features/generations/modes';
import { useSession } from '../../lib/session';
import { Page as NotFound } from './not-found';

const PROMPT_MAX = 1000;

/**
 * The generation screen's frame: the mode, its description and placeholder, the prompt and the
 * source photo. Face swap needs a trained model first (otherwise /upload/).
 */
export function Page() {
  const { t } = useTranslation();
  // The face-swap routes name the mode in the path itself (no :mode parameter).
  const { mode = 'face_swap' } = useParams();
  const { user, isLoggedIn } = useSession();
  const [prompt, setPrompt] = useState('');
  if (!isGenerationMode(mode)) return <NotFound />;
  if (mode === 'face_swap' && isLoggedIn && user && !user.lora) return <Navigate to="/upload/" replace />;
  const Icon = MODE_ICONS[mode];
  const needsPhoto = mode !== 'simple';
  return (
    <PageFrame width="narrow" testId="generate-page">
      <div className="generate-head">
        <span className="generate-head__art" style={{ background: MODE_ART[mode] }}>
          <Icon size={28} />
        </span>
        <div>
          <h2 className="generate-head__title">{t(`modes.${mode}.title`)}</h2>
          <p className="generate-head__text">{t(`modes.${mode}.description`)}</p>
        </div>
      </div>
      {needsPhoto && (
        <div className="dropzone dropzone--static">
          <IconUpload size={26} />
          <span>{t(`modes.${mode}.photo`)}</span>
        </div>
      )}
      <label className="field field--default">
        <span className="field__title">{t('generate.prompt')}</span>
        <textarea
          className="field__input field__textarea"
          value={prompt}
          maxLength={PROMPT_MAX}
          placeholder={t(`modes.${mode}.placeholder`)}
          onChange={(event) => setPrompt(event.target.value)}
          rows={5}
        />
        <span className="field__hint">
          {prompt.length >= PROMPT_MAX
            ? t('messages.maxChars', { max: PROMPT_MAX })
            : t('generate.englishHint')}
        </span>
      </label>
      <Alert tone="info">{t('generate.unavailable')}</Alert>
      <Button theme="primary" size="lg" block disabled>
        {t('generate.submit')}
      </Button>
      {!isLoggedIn && (
        <ButtonLink to="/welcome/" theme="light" block>
          {t('generate.howItWorks')}
        </ButtonLink>
      )}
    </PageFrame>
  );
}
