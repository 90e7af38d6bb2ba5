import { GenerationStatus, isTerminalStatus } from '@mirra/contracts';
import type { ModelsDeps, ProviderLora } from './models.deps.js';
import type { JobRun } from '../../shared/jobs.js';
import { alignedFaceCrop, buildFaceProfile, type FaceProfile } from '@mirra/imaging';
import { ALIGNED_CROP_SIZE, modelPhotoKeys, modelStoragePrefix } from './models.models.js';
import { modelsRepository, type ModelRow } from './models.repository.js';
import { completeTraining, failTraining } from './model-training.usecases.js';
import { trainModelJob } from './models.jobs.definitions.js';

/** A training failure that retrying cannot fix (the photos cannot make a model). */
class TrainingRefused extends Error {
  override name = 'TrainingRefused';
}

/**
 * Trains one model with the local engine. Safe to run twice or after a crash: only the run that
 * claims the attempt (IN_QUEUE → IN_PROGRESS for this attempt) works, files are written under the
 * model's own prefix (a rerun overwrites them), and completing or failing is a conditional change.
 * Provider engines will submit the same photos' aligned crops for LoRA training here and resume
 * by their job id, as generations do.
 */
export async function runModelTraining(
  deps: ModelsDeps,
  modelId: number,
  attempt: number,
  run: JobRun,
): Promise<void> {
  const found = await modelsRepository.findById(deps.db, modelId);
  if (!found || found.trainingAttempt !== attempt || isTerminalStatus(found.status)) return;
  const claimed = await modelsRepository.transition(
    deps.db,
    modelId,
    deps.now(),
    GenerationStatus.IN_PROGRESS,
    { trainingStartedAt: deps.now() },
    { attempt },
  );
  if (!claimed) return;
  const model = { ...found, ...claimed };

  let completed: boolean;
  try {
    // Completing is inside too: a database fault there must requeue the attempt, not leave it
    // IN_PROGRESS for the reconciler.
    const trainers = deps.modelTrainers;
    const local = await trainLocally(deps, model, trainers.length > 0 ? LOCAL_SHARE_WITH_PROVIDER : 1);
    const providerLoras = await trainAtProvider(deps, model, local.alignedKeys);
    completed = await completeTraining(deps, model, { ...local, providerLoras });
  } catch (error) {
    const isRefusal = error instanceof TrainingRefused || error instanceof ProviderTrainingRefused;
    if (!isRefusal && run.attempt < run.maxAttempts) {
      // Back to the queue for graphile-worker's retry with backoff.
      await modelsRepository.transition(
        deps.db,
        model.id,
        deps.now(),
        GenerationStatus.IN_QUEUE,
        {},
        { attempt },
      );
      throw error;
    }
    deps.logger.warn({ model: model.uuid, err: error }, 'model training failed');
    await failTraining(deps, model, {
      status: isRefusal ? GenerationStatus.ERROR : GenerationStatus.FAILED,
      code:
        error instanceof ProviderTrainingRefused
          ? error.code
          : isRefusal
            ? 'models.training_refused'
            : 'models.training_failed',
      detail: isRefusal
        ? (error as Error).message
        : 'Training failed on our side. Your credits were refunded; you can start it again.',
    });
    return;
  }
  // Deleted (or stopped) meanwhile: nobody will use the crops just written.
  if (!completed && !(await modelsRepository.findById(deps.db, model.id))) {
    await deps.storage.deletePrefix(modelStoragePrefix(model.userId, model.uuid));
  }
}

/**
 * The local engine's training: an aligned face crop of every good photo (upright, eyes level, the
 * same size: what a LoRA would be trained on too), then the face profile — the averaged descriptor
 * (the person's identity), landmark statistics, and the best reference photos per pose, which
 * face swap and face photos draw from. Seconds for 15 photos: the analyses were made at upload.
 */
async function trainLocally(
  deps: ModelsDeps,
  model: ModelRow,
  share: number,
): Promise<{ profile: FaceProfile; alignedKeys: Map<string, string> }> {
  const photos = (await modelsRepository.listPhotosWithAnalysis(deps.db, model.id)).filter(
    (photo) => photo.ok,
  );
  const minPhotos = deps.config.models.minPhotos;
  if (photos.length < minPhotos) {
    throw new TrainingRefused(`The model needs ${minPhotos} good photos; it has ${photos.length}.`);
  }
  const alignedKeys = new Map<string, string>();
  for (const [index, photo] of photos.entries()) {
    const file = await deps.storage.get(photo.storageKey);
    // A missing original is a storage fault (photos cannot be deleted while training): retried.
    if (!file) throw new Error(`photo ${photo.uuid} of model ${model.uuid} is missing from storage`);
    const crop = await alignedFaceCrop(file.data, photo.analysis, ALIGNED_CROP_SIZE);
    if (crop) {
      const key = modelPhotoKeys(model.userId, model.uuid, photo.uuid, 'png').aligned;
      await deps.storage.put(key, crop, 'image/png');
      alignedKeys.set(photo.uuid, key);
    }
    await modelsRepository.setProgress(
      deps.db,
      model.id,
      deps.now(),
      Math.round(share * (5 + (85 * (index + 1)) / photos.length)),
    );
  }
  const profile = buildFaceProfile(
    photos.map((photo) => ({ photoId: photo.uuid, analysis: photo.analysis })),
  );
  await modelsRepository.setProgress(deps.db, model.id, deps.now(), Math.round(share * 95));
  if (profile.photoCount < minPhotos) {
    throw new TrainingRefused(
      `Only ${profile.photoCount} of the photos have a face the model can learn from; it needs ${minPhotos}.`,
    );
  }
  return { profile, alignedKeys };
}

/**
 * The local part of a training that ran before the provider's job was submitted, read back: the
 * face profile (built from the photos' stored analyses, as training built it) and the aligned
 * crops training wrote. A webhook finishing the provider's training completes the model with it.
 */
export async function storedLocalTraining(
  deps: ModelsDeps,
  model: ModelRow,
): Promise<{ profile: FaceProfile; alignedKeys: Map<string, string> }> {
  const photos = (await modelsRepository.listPhotosWithAnalysis(deps.db, model.id)).filter(
    (photo) => photo.ok,
  );
  const alignedKeys = new Map<string, string>();
  for (const photo of photos) {
    const key = modelPhotoKeys(model.userId, model.uuid, photo.uuid, 'png').aligned;
    if (await deps.storage.open(key)) alignedKeys.set(photo.uuid, key);
  }
  const profile = buildFaceProfile(
    photos.map((photo) => ({ photoId: photo.uuid, analysis: photo.analysis })),
  );
  return { profile, alignedKeys };
}

/** A provider's training refused the photos (its safety system) or failed for good. */
class ProviderTrainingRefused extends Error {
  override name = 'ProviderTrainingRefused';
  constructor(
    readonly code: 'models.training_moderated' | 'models.training_failed',
    message: string,
  ) {
    super(message);
  }
}

/** How a digital model ends when its provider training failed or was refused (refunded either way). */
export function providerTrainingFailure(refused: boolean) {
  return refused
    ? {
        code: 'models.training_moderated' as const,
        detail: 'The photos were refused by the provider’s safety system. Your credits were refunded.',
      }
    : {
        code: 'models.training_failed' as const,
        detail: 'Training failed at the provider. Your credits were refunded; you can start it again.',
      };
}

/** With a provider training too, the local profile is the first 30 % of the progress. */
const LOCAL_SHARE_WITH_PROVIDER = 0.3;
/** Status reads of a provider's training: every 2 s at first, then at most every 10 s. */
const TRAINING_POLL_MS = { first: 2000, max: 10_000 };

/** An outage of a provider before it took the job: the next trainer of the list is tried. */
const isOutage = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'engine.unavailable' || code === 'engine.timeout';
};

/**
 * The LoRA of the model at the first provider of ENGINE_TRAINING that takes the job: the aligned
 * crops are sent, the job id stored on the model at once (a rerun of this attempt resumes it and
 * never submits again), and its status polled until the LoRA is there. An outage before any
 * provider took it moves on; past the last provider the model is made from the local profile alone
 * when `local` is in the list, else the attempt is retried. Progress runs 30–99 %.
 */
async function trainAtProvider(
  deps: ModelsDeps,
  model: ModelRow,
  alignedKeys: Map<string, string>,
): Promise<Record<string, ProviderLora> | undefined> {
  const trainers = deps.modelTrainers;
  if (trainers.length === 0) return undefined;
  const signal = AbortSignal.timeout(deps.config.models.trainingTimeoutSeconds * 1000);
  const triggerWord = loraTriggerWord(model.uuid);
  let trainer = model.trainingJobId ? trainers.find((one) => one.name === model.trainingProvider) : undefined;
  let jobId = trainer ? model.trainingJobId : null;
  if (!trainer || !jobId) {
    const photos = [];
    for (const [photoUuid, key] of alignedKeys) {
      const file = await deps.storage.get(key);
      if (file) photos.push({ name: `${photoUuid}.png`, data: file.data, contentType: 'image/png' });
    }
    for (const candidate of trainers) {
      try {
        jobId = await candidate.submit({ modelUuid: model.uuid, triggerWord, photos }, signal);
        trainer = candidate;
        break;
      } catch (error) {
        if (!isOutage(error)) throw error;
        deps.logger.warn({ model: model.uuid, trainer: candidate.name, err: error }, 'trainer unavailable');
      }
    }
    if (!trainer || !jobId) {
      if (deps.config.trainingEngines.includes('local')) return undefined;
      throw new Error('No provider could take the training.');
    }
    await modelsRepository.update(deps.db, model.id, deps.now(), {
      trainingProvider: trainer.name,
      trainingJobId: jobId,
    });
  }
  for (let polls = 0; ; polls++) {
    const polled = await trainer.poll(jobId, signal);
    if (polled.kind === 'done') {
      return { [trainer.name]: { url: polled.loraUrl, triggerWord, costUsd: polled.costUsd } };
    }
    if (polled.kind === 'failed') {
      const failure = providerTrainingFailure(polled.refused);
      throw new ProviderTrainingRefused(failure.code, failure.detail);
    }
    await modelsRepository.setProgress(
      deps.db,
      model.id,
      deps.now(),
      Math.min(99, Math.round(30 + 0.69 * polled.progress)),
    );
    if (signal.aborted) throw new Error('The provider took too long to train the model.');
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(TRAINING_POLL_MS.max, TRAINING_POLL_MS.first * 1.25 ** polls)),
    );
  }
}

/** The word a model's LoRA is trained to and prompted with: fixed per model, rare as a word. */
export function loraTriggerWord(modelUuid: string): string {
  return `mirra${modelUuid.replace(/-/g, '').slice(0, 8)}`;
}

/**
 * Fails and refunds training that stopped moving (a worker killed mid-job): anything in training
 * untouched for MODEL_TRAINING_TIMEOUT_SECONDS. Runs every minute.
 */
export async function reconcileStuckTraining(deps: ModelsDeps): Promise<number> {
  const before = new Date(deps.now().getTime() - deps.config.models.trainingTimeoutSeconds * 1000);
  const stale = await modelsRepository.findStaleTraining(deps.db, before, 100);
  let failed = 0;
  for (const model of stale) {
    const ended = await failTraining(deps, model, {
      status: GenerationStatus.FAILED,
      code: 'models.timeout',
      detail: 'Training took too long and was stopped. Your credits were refunded; you can start it again.',
    });
    if (ended) failed++;
  }
  if (failed) deps.logger.warn({ failed }, 'stopped and refunded stuck model training');
  return failed;
}

/**
 * Fails and refunds, once, training IN_PROGRESS that no job can run any more (the worker died on
 * the last attempt, or the job is gone): nothing would ever finish it.
 */
export async function failOrphanedTraining(deps: ModelsDeps): Promise<number> {
  const orphaned = await modelsRepository.findTrainingWithoutRunnableJob(deps.db, trainModelJob.name, 100);
  let failed = 0;
  for (const model of orphaned) {
    const ended = await failTraining(deps, model, {
      status: GenerationStatus.FAILED,
      code: 'models.training_failed',
      detail: 'Training failed on our side. Your credits were refunded; you can start it again.',
    });
    if (ended) failed++;
  }
  if (failed) deps.logger.warn({ failed }, 'failed and refunded model training no job can run any more');
  return failed;
}
