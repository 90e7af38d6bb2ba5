import { GenerationStatus } from '@mirra/contracts';
import type { TModelEvent, TModelSummary } from '../../lib/api-types';

/** Where a model is in its life: collecting photos, training, ready to use, or training failed. */
export type ModelPhase = 'collecting' | 'training' | 'ready' | 'failed';

export function modelPhase(status: number): ModelPhase {
  switch (status) {
    case GenerationStatus.COMPLETED:
      return 'ready';
    case GenerationStatus.IN_QUEUE:
    case GenerationStatus.IN_PROGRESS:
      return 'training';
    case GenerationStatus.ERROR:
    case GenerationStatus.FAILED:
      return 'failed';
    default:
      return 'collecting';
  }
}

type Trainable = Pick<TModelSummary, 'status' | 'reference_count' | 'min_photos'>;

/** Training may start (or start again after a failure) once enough photos are good. */
export function canTrain(model: Trainable): boolean {
  const phase = modelPhase(model.status);
  return (phase === 'collecting' || phase === 'failed') && model.reference_count >= model.min_photos;
}

/** Photos may be added before training and after it (a trained model grows), never during it. */
export const canAddPhotos = (status: number) => modelPhase(status) !== 'training';

/** A queued training already shows a sliver of the bar, so the dialog never looks stuck at zero. */
const QUEUED_PERCENT = 2;

/** The training bar in percent: never backwards, full only when ready. */
export function trainingPercent(status: number, progress: number, shownBefore = 0): number {
  const phase = modelPhase(status);
  if (phase === 'ready') return 100;
  if (phase !== 'training') return shownBefore;
  const reported = Number.isFinite(progress) ? Math.round(progress) : 0;
  const floor = status === GenerationStatus.IN_QUEUE ? QUEUED_PERCENT : Math.max(QUEUED_PERCENT, reported);
  return Math.min(99, Math.max(shownBefore, floor));
}

/**
 * A live event applied to the model on screen. A final status is left for the full record (read
 * right after: the reason of a failure, the photos' final count); nothing moves a model out of a
 * final state.
 */
export function applyModelEvent<T extends Pick<TModelSummary, 'status' | 'progress'>>(
  model: T,
  event: Pick<TModelEvent, 'status' | 'progress'>,
): T {
  if (modelPhase(model.status) !== 'training') return model;
  if (modelPhase(event.status) !== 'training') return model;
  return { ...model, status: event.status as T['status'], progress: event.progress };
}

// --- The training dialog --------------------------------------------------------------------

/**
 * The dialogs after "Start training": progress (which may be hidden: training goes on, the page
 * may even close), then success with a create-photo button, or the failure with its reason.
 */
export type TrainingDialog =
  | { step: 'idle' }
  | { step: 'training'; uuid: string; percent: number; isQueued: boolean; isOpen: boolean }
  | { step: 'ready'; uuid: string }
  | { step: 'failed'; uuid: string; errorCode: string | null; errorDetail: string | null };

export const IDLE_DIALOG: TrainingDialog = { step: 'idle' };

type Observed = Pick<TModelSummary, 'uuid' | 'status' | 'progress' | 'error_code' | 'error_detail'>;

export type TrainingDialogAction =
  /** Training was accepted (202): the model as the server answered. */
  | { type: 'started'; model: Observed }
  /** The model as it is now (an event, a poll, a read after the stream ended). */
  | { type: 'observed'; model: Observed }
  /** The user closed the dialog on screen. */
  | { type: 'closed' };

export function reduceTrainingDialog(state: TrainingDialog, action: TrainingDialogAction): TrainingDialog {
  switch (action.type) {
    case 'started':
      return follow({ step: 'idle' }, action.model, true);
    case 'observed':
      // Only the training started here is followed; other models say their state on the page.
      if (state.step !== 'training' || state.uuid !== action.model.uuid) return state;
      return follow(state, action.model, state.isOpen);
    case 'closed':
      return state.step === 'training' ? { ...state, isOpen: false } : IDLE_DIALOG;
  }
}

function follow(state: TrainingDialog, model: Observed, isOpen: boolean): TrainingDialog {
  const phase = modelPhase(model.status);
  // The outcome is shown even when the progress was hidden: the user started it and is still here.
  if (phase === 'ready') return { step: 'ready', uuid: model.uuid };
  if (phase === 'failed') {
    return { step: 'failed', uuid: model.uuid, errorCode: model.error_code, errorDetail: model.error_detail };
  }
  const before = state.step === 'training' ? state.percent : 0;
  return {
    step: 'training',
    uuid: model.uuid,
    percent: trainingPercent(model.status, model.progress, before),
    isQueued: model.status !== GenerationStatus.IN_PROGRESS,
    isOpen,
  };
}

/**
 * How long the progress stays on screen at least. An engine that trains in about a second (the
 * local face profile) would otherwise flash the bar for a frame and jump to success: the person
 * is to see the training go through its stages, so an early success waits, the bar full.
 */
export const MIN_TRAINING_PROGRESS_MS = 2500;

/**
 * The dialog as shown at `now`: a success that came sooner than `MIN_TRAINING_PROGRESS_MS` after
 * the training started here (`startedAt`) shows the progress, full, until then. A failure is said
 * at once: a full bar would promise what did not happen.
 */
export function holdEarlySuccess(
  state: TrainingDialog,
  startedAt: number | null,
  now: number,
): TrainingDialog {
  if (state.step !== 'ready' || startedAt === null) return state;
  if (now - startedAt >= MIN_TRAINING_PROGRESS_MS) return state;
  return { step: 'training', uuid: state.uuid, percent: 100, isQueued: false, isOpen: true };
}

/** Whether the dialog is on screen. */
export const isDialogOpen = (state: TrainingDialog) =>
  state.step === 'ready' || state.step === 'failed' || (state.step === 'training' && state.isOpen);

/** The i18n key of a failed training's reason (`models.timeout` → `modelPhotos.trainingErrors.timeout`). */
export function trainingErrorKey(errorCode: string | null): string | null {
  const known = ['models.training_refused', 'models.training_failed', 'models.timeout'];
  return errorCode && known.includes(errorCode)
    ? `modelPhotos.trainingErrors.${errorCode.slice('models.'.length)}`
    : null;
}

/**
 * What to say about how long training takes, from the time the engine that trains usually needs:
 * the local face profile is ready in seconds, a provider's LoRA in minutes (rounded up).
 */
export function trainingTimeNote(seconds: number): {
  key: 'model.trainingTimeSeconds' | 'model.trainingTimeMinutes';
  values: { minutes?: number };
} {
  if (seconds <= 60) return { key: 'model.trainingTimeSeconds', values: {} };
  return { key: 'model.trainingTimeMinutes', values: { minutes: Math.ceil(seconds / 60) } };
}
