import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../../components/ui/button';
import { IconCheck } from '../../../components/ui/icons';
import { Sheet } from '../../../components/ui/sheet';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { numberFormat } from '../../../lib/locale-fallback';
import { isDialogOpen, type TrainingDialog as DialogState } from '../model-status';
import { CreatePhotoButton } from './create-photo-button';
import { ModelFailure } from './model-failure';

/**
 * After "Start training": the progress dialog (as long as the engine that trains takes; closing
 * it, or the page, leaves training running), then the success dialog with a create-photo button, or what went wrong.
 */
export function TrainingDialog({
  state,
  trainingSeconds,
  onClose,
}: {
  state: DialogState;
  /** How long the engine that trains usually takes (the model's `training_seconds`). */
  trainingSeconds?: number;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const open = isDialogOpen(state);
  // Keep the last content while the sheet plays its closing animation.
  const [shown, setShown] = useState(state);
  if (open && state !== shown) setShown(state);
  const title =
    shown.step === 'ready'
      ? t('training.readyTitle')
      : shown.step === 'failed'
        ? t('training.failedTitle')
        : t('training.title');
  return (
    <Sheet open={open} onClose={onClose} title={title}>
      {shown.step === 'training' && (
        <div className="stack">
          <TrainingProgress
            percent={shown.percent}
            isQueued={shown.isQueued}
            trainingSeconds={trainingSeconds}
          />
          <Button theme="light" size="lg" block onClick={onClose} data-testid="training-hide">
            {t('training.hide')}
          </Button>
        </div>
      )}
      {shown.step === 'ready' && <TrainingReady uuid={shown.uuid} onLeave={onClose} />}
      {shown.step === 'failed' && (
        <div className="stack" data-testid="training-failed">
          <ModelFailure errorCode={shown.errorCode} errorDetail={shown.errorDetail} />
          <ButtonLink to={`/model/${shown.uuid}/`} theme="light" size="lg" block onClick={onClose}>
            {t('training.openModel')}
          </ButtonLink>
        </div>
      )}
    </Sheet>
  );
}

/** The live bar of a training, also shown on the model's page while it trains. */
export function TrainingProgress({
  percent,
  isQueued,
  trainingSeconds,
}: {
  percent: number;
  isQueued: boolean;
  trainingSeconds?: number;
}) {
  const { t, i18n } = useTranslation();
  // The percentage is shown once, beside the phase, written the language's way ("42 %" in German).
  const percentText = numberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(
    percent / 100,
  );
  return (
    <div className="result-wait training-progress" data-testid="training-progress">
      <div className="result-wait__art" aria-hidden="true">
        <span className="result-wait__orb" />
      </div>
      <div className="result-wait__status">
        <span aria-live="polite">{isQueued ? t('training.queued') : t('training.running')}</span>
        <span className="result-wait__percent" data-testid="training-percent">
          {percentText}
        </span>
      </div>
      <ProgressBar
        value={percent}
        label={t('training.progressLabel')}
        size="lg"
        testId="training-progressbar"
      />
      <p className="result-wait__note" data-testid="training-note">
        {trainingSeconds !== undefined && trainingSeconds <= 60
          ? t('training.noteSeconds')
          : t('training.noteMinutes', { minutes: Math.ceil((trainingSeconds ?? 30 * 60) / 60) })}
      </p>
    </div>
  );
}

/** Success: the way to the first picture. Leaving closes the dialog (the page may stay alive). */
function TrainingReady({ uuid, onLeave }: { uuid: string; onLeave(): void }) {
  const { t } = useTranslation();
  return (
    <div className="result-card" data-testid="training-ready">
      <span className="result-card__icon result-card__icon--success">
        <IconCheck size={32} />
      </span>
      <p className="result-card__text">{t('training.readyText')}</p>
      <CreatePhotoButton modelUuid={uuid} onLeave={onLeave} />
      <ButtonLink to={`/model/${uuid}/`} theme="light" size="lg" block onClick={onLeave}>
        {t('training.openModel')}
      </ButtonLink>
    </div>
  );
}
