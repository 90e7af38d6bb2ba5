import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIVE_CHECK_FRAME_NAMES, type TLiveCheckProblem, type TLiveCheckResult } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Sheet } from '../../../components/ui/sheet';
import { describeError } from '../../../lib/error-messages';
import { useQrCode } from '../../../lib/use-qr-code';
import { modelKeys, modelsApi } from '../api/models.api';
import { liveCheckLink } from '../live-check';
import '../models.css';

type FrameName = (typeof LIVE_CHECK_FRAME_NAMES)[number];

/** How long each prompt stays on screen before its shot: long enough to turn, short enough to be quick. */
const STEP_MS = 1600;

type Stage =
  | { kind: 'intro' }
  | { kind: 'camera'; step: number }
  | { kind: 'sending' }
  | { kind: 'refused'; problems: TLiveCheckProblem[] }
  | { kind: 'blocked'; reason: 'denied' | 'noCamera' }
  | { kind: 'error'; message: string };

/**
 * The live check before training: the front camera, an oval to put the face in, and three
 * prompted shots a moment apart (straight, left, right) with the progress, sent together to the
 * server, which decides. No camera, or a refused permission, says so and offers the same step on
 * a phone: a link and its QR code (the phone signs in to the same account).
 */
export function LiveCheckSheet({
  modelUuid,
  open,
  onClose,
  onPassed,
  send,
  phoneLink,
  phoneNote,
}: {
  modelUuid: string;
  open: boolean;
  onClose(): void;
  onPassed(): void;
  /**
   * Where the frames go (the consent page sends them by its link); by default the model's own
   * check, after which the model is read again.
   */
  send?: (frames: Record<FrameName, Blob>) => Promise<TLiveCheckResult>;
  /** The same step on a phone (by default the model's page, which opens the check), and what it says. */
  phoneLink?: string;
  phoneNote?: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ kind: 'intro' });
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const run = useRef(0);

  const stopCamera = () => {
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
  };
  useEffect(() => () => stopCamera(), []);
  // Closed: the next opening starts again from the intro, and a check under way stops.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (!open) setStage({ kind: 'intro' });
  }
  useEffect(() => {
    if (!open) {
      run.current += 1;
      stopCamera();
    }
  }, [open]);

  async function start() {
    const id = ++run.current;
    const media = navigator.mediaDevices as MediaDevices | undefined;
    if (!media?.getUserMedia) {
      setStage({ kind: 'blocked', reason: 'noCamera' });
      return;
    }
    try {
      stream.current = await media.getUserMedia({
        video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } },
        audio: false,
      });
    } catch (error) {
      const name = (error as { name?: string }).name;
      setStage({
        kind: 'blocked',
        reason: name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'noCamera',
      });
      return;
    }
    setStage({ kind: 'camera', step: 0 });
    const element = await waitFor(() => video.current);
    element.srcObject = stream.current;
    await element.play().catch(() => undefined);
    const frames: Partial<Record<FrameName, Blob>> = {};
    for (const [step, name] of LIVE_CHECK_FRAME_NAMES.entries()) {
      if (run.current !== id) return;
      setStage({ kind: 'camera', step });
      await sleep(STEP_MS);
      if (run.current !== id) return;
      frames[name] = await grab(element);
    }
    stopCamera();
    setStage({ kind: 'sending' });
    try {
      const result = send
        ? await send(frames as Record<FrameName, Blob>)
        : await modelsApi.liveCheck(modelUuid, frames as Record<FrameName, Blob>);
      if (run.current !== id) return;
      if (!send) await queryClient.invalidateQueries({ queryKey: modelKeys.one(modelUuid) });
      if (result.passed) onPassed();
      else setStage({ kind: 'refused', problems: result.problems });
    } catch (error) {
      if (run.current !== id) return;
      setStage({ kind: 'error', message: describeError(t, error).alert ?? t('liveCheck.failed') });
    }
  }

  const step = stage.kind === 'camera' ? stage.step : 0;
  const name = LIVE_CHECK_FRAME_NAMES[step] ?? 'straight';
  return (
    <Sheet open={open} onClose={onClose} title={t('liveCheck.title')} className="live-check-sheet">
      <div className="stack live-check" data-testid="live-check" data-stage={stage.kind}>
        {(stage.kind === 'camera' || stage.kind === 'sending') && (
          <>
            <div className={`live-check__view live-check__view--${name}`}>
              <video ref={video} className="live-check__video" muted playsInline autoPlay />
              <div className="live-check__oval" aria-hidden="true" />
              <div className="live-check__arrow" aria-hidden="true" />
            </div>
            <p className="live-check__prompt" aria-live="assertive" data-testid="live-check-prompt">
              {stage.kind === 'sending' ? t('liveCheck.sending') : t(`liveCheck.steps.${name}`)}
            </p>
            <ProgressBar
              value={stage.kind === 'sending' ? 3 : step}
              max={3}
              label={t('liveCheck.progress', { current: step + 1, total: 3 })}
              testId="live-check-progress"
            />
          </>
        )}
        {stage.kind === 'intro' && (
          <>
            <p>{t('liveCheck.intro')}</p>
            <ol className="live-check__list">
              {LIVE_CHECK_FRAME_NAMES.map((frame) => (
                <li key={frame}>{t(`liveCheck.steps.${frame}`)}</li>
              ))}
            </ol>
            <p className="muted-note">{t('liveCheck.privacy')}</p>
            <Button
              theme="primary"
              size="lg"
              block
              onClick={() => void start()}
              data-testid="live-check-start"
            >
              {t('liveCheck.start')}
            </Button>
          </>
        )}
        {stage.kind === 'refused' && (
          <>
            <Alert>
              <strong>{t('liveCheck.refused')}</strong>
              <ul className="live-check__problems" data-testid="live-check-problems">
                {stage.problems.map((problem) => (
                  <li key={problem} data-problem={problem}>
                    {t(`liveCheck.problems.${problem.replace('.', '_')}`)}
                  </li>
                ))}
              </ul>
            </Alert>
            <Button
              theme="primary"
              size="lg"
              block
              onClick={() => void start()}
              data-testid="live-check-retry"
            >
              {t('liveCheck.retry')}
            </Button>
          </>
        )}
        {stage.kind === 'error' && (
          <>
            <Alert>{stage.message}</Alert>
            <Button
              theme="primary"
              size="lg"
              block
              onClick={() => void start()}
              data-testid="live-check-retry"
            >
              {t('liveCheck.retry')}
            </Button>
          </>
        )}
        {stage.kind === 'blocked' && (
          <OnPhone
            link={phoneLink ?? liveCheckLink(window.location.origin, modelUuid)}
            note={phoneNote}
            reason={stage.reason}
          />
        )}
      </div>
    </Sheet>
  );
}

/** No usable camera here: why, and the same step on a phone by a link and its QR code. */
function OnPhone({ link, note, reason }: { link: string; note?: string; reason: 'denied' | 'noCamera' }) {
  const { t } = useTranslation();
  const qr = useQrCode(link);
  return (
    <div className="stack" data-testid="live-check-blocked" data-reason={reason}>
      <Alert tone="info">{t(reason === 'denied' ? 'liveCheck.denied' : 'liveCheck.noCamera')}</Alert>
      <p>{note ?? t('liveCheck.phone')}</p>
      {qr && (
        <img
          className="live-check__qr"
          src={qr}
          width={180}
          height={180}
          alt={t('liveCheck.qrAlt')}
          data-testid="live-check-qr"
        />
      )}
      <a className="live-check__link" href={link} data-testid="live-check-link">
        {link}
      </a>
    </div>
  );
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor<T>(read: () => T | null): Promise<T> {
  for (;;) {
    const value = read();
    if (value) return value;
    await sleep(16);
  }
}

/** The video's current picture as a JPEG, unmirrored (as the camera sees it). */
async function grab(element: HTMLVideoElement): Promise<Blob> {
  if (element.readyState < 2)
    await new Promise((resolve) => element.addEventListener('loadeddata', resolve, { once: true }));
  const canvas = document.createElement('canvas');
  canvas.width = element.videoWidth || 640;
  canvas.height = element.videoHeight || 480;
  canvas.getContext('2d')?.drawImage(element, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no frame'))), 'image/jpeg', 0.9),
  );
}
