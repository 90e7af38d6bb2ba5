import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink, buttonClass } from '../../../components/ui/button';
import {
  IconDownload,
  IconEdit,
  IconFace,
  IconRepeat,
  IconUser,
  IconVideo,
} from '../../../components/ui/icons';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import type { TGeneration, TGenerationResult } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { downloadInTelegram, isInTelegram } from '../../../lib/telegram';
import { useModeOffered } from '../hooks/use-offered-modes';
import { generationKeys, generationsApi } from '../api/generations.api';
import { formatCountdown } from '../../../lib/countdown';
import { isVideoResult } from '../../../lib/image-variants';
import { useChargedAction, ChargeDialogs } from '../../credits';
import { PublishAction, ResultShareButton, ResultShareNote } from '../../posts';
import { PictureToolsMenu } from './picture-tool-links';
import '../generations.css';

/**
 * What I can do with a result: download the original, share it, repeat it (a new result screen),
 * edit it or put my face in it (it becomes the source photo), go to my profile, publish it (a
 * picture or a video; see PublishAction), animate it (a picture becomes the source photo of a video),
 * or run a picture tool on it. A picture shows download and share, then edit, animate and publish;
 * the rest waits behind "Tools" so a 360 px phone shows the picture and a handful of buttons, not
 * thirteen. A video is downloaded, shared, repeated and published only: the other actions take a picture.
 */
export function ResultActions({
  generation,
  result,
}: {
  generation: TGeneration;
  result: TGenerationResult;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const offered = useModeOffered();
  const errors = useFormErrors([]);
  const [toolsOpen, setToolsOpen] = useState(false);
  const repeat = useChargedAction({
    action: (key) => generationsApi.repeat(generation.uuid, key),
    onSuccess: (next) => {
      queryClient.setQueryData(generationKeys.one(next.uuid), next);
      setToolsOpen(false);
      void navigate(`/generation/${next.uuid}/`);
    },
    onError: errors.showError,
  });
  const video = isVideoResult(result);
  const absolute = (url: string) => new URL(url, window.location.origin).toString();
  const fileName =
    new URL(result.download_url, window.location.origin).searchParams.get('download') ??
    (video ? 'mirra.mp4' : 'mirra.png');

  async function download(event: React.MouseEvent) {
    if (!isInTelegram()) return;
    // Many Telegram web views ignore download links: ask Telegram to save the file instead.
    event.preventDefault();
    try {
      if (!(await downloadInTelegram(absolute(result.download_url), fileName))) {
        window.open(absolute(result.download_url), '_blank');
      }
    } catch {
      useAppStore.getState().showTopinfo('error', t('result.downloadFailed'));
    }
  }

  const repeatButton =
    repeat.waitLeft !== null ? (
      <Button theme="light" loading onClick={repeat.cancelWait} data-testid="result-repeat-wait">
        {t('generate.autoSubmitIn', { time: formatCountdown(repeat.waitLeft) })}
      </Button>
    ) : (
      <Button
        theme="light"
        icon={<IconRepeat size={18} />}
        loading={repeat.pending}
        onClick={() => void repeat.run()}
        data-testid="result-repeat"
      >
        {t('result.repeat')}
      </Button>
    );
  const profileLink = (
    <ButtonLink to="/profile/" theme="light" icon={<IconUser size={18} />} data-testid="result-profile">
      {t('result.toProfile')}
    </ButtonLink>
  );

  return (
    <div className="result-actions">
      <div className="result-actions__main">
        <a
          href={result.download_url}
          download={fileName}
          className={buttonClass({ theme: 'primary', size: 'lg', block: true })}
          onClick={(event) => void download(event)}
          data-testid="result-download"
        >
          <IconDownload size={20} />
          <span className="btn__label">{t('result.download')}</span>
        </a>
        <ResultShareButton generationUuid={generation.uuid} text={t('result.shareText')} />
      </div>
      <ResultShareNote generationUuid={generation.uuid} />
      {video ? (
        // A video is downloaded, shared, repeated and published only: few enough to show them all.
        <div className="result-actions__grid">
          {repeatButton}
          {profileLink}
          <PublishAction generation={generation} />
        </div>
      ) : (
        <>
          {/* A repeat waiting for its turn stays in sight while the tools are closed. */}
          {repeat.waitLeft !== null && !toolsOpen && repeatButton}
          {/* The few actions most people take on a picture, one tap each (edit, animate, publish),
              then one Tools button: face swap and the picture tools, then repeat and the profile. */}
          <div className="result-actions__row">
            <ButtonLink
              to={`/generate/editing/generation/${generation.uuid}/`}
              theme="light"
              icon={<IconEdit size={18} />}
              data-testid="result-edit"
            >
              {t('result.edit')}
            </ButtonLink>
            {offered('video') && (
              <ButtonLink
                to={`/generate/video/generation/${generation.uuid}/`}
                theme="light"
                icon={<IconVideo size={18} />}
                data-testid="result-animate"
              >
                {t('result.animate')}
              </ButtonLink>
            )}
            <PublishAction generation={generation} />
            <PictureToolsMenu
              from={`generation/${generation.uuid}`}
              testIdPrefix="result"
              open={toolsOpen}
              onOpenChange={setToolsOpen}
              leading={
                <ButtonLink
                  to={`/generate/face_swap/generation/${generation.uuid}/`}
                  theme="light"
                  icon={<IconFace size={18} />}
                  data-testid="result-face-swap"
                >
                  {t('result.faceSwap')}
                </ButtonLink>
              }
            >
              {repeatButton}
              {profileLink}
            </PictureToolsMenu>
          </div>
        </>
      )}
      {errors.alert && <Alert>{errors.alert}</Alert>}
      <ChargeDialogs refusal={repeat.refusal} onClose={repeat.closeRefusal} onSkip={repeat.skipWait} />
    </div>
  );
}
