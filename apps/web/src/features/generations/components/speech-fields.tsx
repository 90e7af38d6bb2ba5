import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, SPEECH_MAX_SECONDS, type TLanguage } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { SegmentedChoice } from '../../../components/ui/segmented-choice';
import type { TUpload } from '../../../lib/api-types';
import { uploadErrorMessage } from '../../../lib/upload-errors';
import { generationsApi } from '../api/generations.api';
import './speech-fields.css';

/** A recorded voice: the stored recording and its length in whole seconds. */
export interface RecordedVoice {
  upload: TUpload;
  seconds: number;
}

type Recorder =
  | { status: 'idle' }
  | { status: 'asking' }
  | { status: 'recording'; elapsed: number }
  | { status: 'uploading' }
  /** No microphone, or permission refused: said, and the text stays the way to go. */
  | { status: 'unavailable'; reason: 'none' | 'denied' }
  | { status: 'failed'; message: string };

/**
 * What a talking photo says and how: the language its text is spoken in, and a recorded voice
 * instead of the text (MediaRecorder, up to SPEECH_MAX_SECONDS, with a timer, stop and
 * re-record). A browser without a microphone, or a refused permission, is told so gently and the
 * text stays.
 */
export function SpeechFields({
  language,
  voice,
  onLanguage,
  onVoice,
}: {
  language: TLanguage;
  voice: RecordedVoice | null;
  onLanguage(language: TLanguage): void;
  onVoice(voice: RecordedVoice | null): void;
}) {
  const { t } = useTranslation();
  const [recorder, setRecorder] = useState<Recorder>({ status: 'idle' });
  const session = useRef<{ media: MediaRecorder; stream: MediaStream; timer: number } | null>(null);

  useEffect(() => () => stopTracks(), []);

  function stopTracks() {
    const current = session.current;
    if (!current) return;
    window.clearInterval(current.timer);
    current.stream.getTracks().forEach((track) => track.stop());
    session.current = null;
  }

  async function start() {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      setRecorder({ status: 'unavailable', reason: 'none' });
      return;
    }
    setRecorder({ status: 'asking' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      const name = (error as DOMException)?.name;
      setRecorder({
        status: 'unavailable',
        reason: name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'none',
      });
      return;
    }
    const media = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    const startedAt = performance.now();
    media.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    media.onstop = () => {
      const seconds = Math.min(
        SPEECH_MAX_SECONDS,
        Math.max(1, Math.ceil((performance.now() - startedAt) / 1000)),
      );
      stopTracks();
      void save(new Blob(chunks, { type: media.mimeType || 'audio/webm' }), seconds);
    };
    const timer = window.setInterval(() => {
      const elapsed = (performance.now() - startedAt) / 1000;
      if (elapsed >= SPEECH_MAX_SECONDS) media.stop();
      else setRecorder({ status: 'recording', elapsed });
    }, 200);
    session.current = { media, stream, timer };
    media.start();
    setRecorder({ status: 'recording', elapsed: 0 });
  }

  async function save(blob: Blob, seconds: number) {
    setRecorder({ status: 'uploading' });
    try {
      const upload = await generationsApi.upload(blob, 'voice', {});
      onVoice({ upload, seconds });
      setRecorder({ status: 'idle' });
    } catch (error) {
      setRecorder({ status: 'failed', message: uploadErrorMessage(t, error) });
    }
  }

  const clock = (seconds: number) => `0:${String(Math.floor(seconds)).padStart(2, '0')}`;

  return (
    <div className="speech" data-testid="speech-fields">
      <SegmentedChoice
        title={t('talking.language')}
        value={language}
        onChange={onLanguage}
        options={LANGUAGES.map((code) => ({
          value: code,
          label: code.toUpperCase(),
          ariaLabel: t(`talking.languages.${code}`),
          testId: `speech-language-${code}`,
        }))}
      />
      <div className="speech__voice">
        <span className="speech__title">{t('talking.voiceTitle')}</span>
        {recorder.status === 'recording' ? (
          <div className="speech__recording" data-testid="voice-recording">
            <span className="speech__dot" aria-hidden="true" />
            <span className="speech__clock" aria-live="off">
              {clock(recorder.elapsed)} / {clock(SPEECH_MAX_SECONDS)}
            </span>
            <ProgressBar
              value={recorder.elapsed}
              max={SPEECH_MAX_SECONDS}
              label={t('talking.recording')}
              className="speech__progress"
            />
            <Button type="button" theme="danger" size="sm" onClick={() => session.current?.media.stop()}>
              {t('talking.stop')}
            </Button>
          </div>
        ) : voice ? (
          <div className="speech__recorded" data-testid="voice-recorded">
            <span>{t('talking.recorded', { time: clock(voice.seconds) })}</span>
            <Button type="button" theme="light" size="sm" onClick={() => void start()}>
              {t('talking.reRecord')}
            </Button>
            <Button type="button" theme="light" size="sm" onClick={() => onVoice(null)}>
              {t('talking.useText')}
            </Button>
          </div>
        ) : (
          <Button
            type="button"
            theme="primary-outline"
            size="md"
            block
            loading={recorder.status === 'asking' || recorder.status === 'uploading'}
            onClick={() => void start()}
            data-testid="voice-record"
          >
            {t('talking.record', { seconds: SPEECH_MAX_SECONDS })}
          </Button>
        )}
        {recorder.status === 'unavailable' && (
          <div data-testid="voice-unavailable">
            <Alert tone="info">
              {recorder.reason === 'denied' ? t('talking.micDenied') : t('talking.noMic')}
            </Alert>
          </div>
        )}
        {recorder.status === 'failed' && <Alert>{recorder.message}</Alert>}
      </div>
    </div>
  );
}
