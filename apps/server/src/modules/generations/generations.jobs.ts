import sharp from 'sharp';
import { z } from 'zod';
import { GenerationStatus, isTerminalStatus } from '@mirra/contracts';
import type { AppDeps } from '../../app/deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { defineJob, toTask, type JobRun } from '../../shared/jobs.js';
import { findTrainedModel, loadModelPhoto } from '../models/models.usecases.js';
import {
  EngineError,
  type EngineFaceModel,
  type EngineImage,
  type EngineOutput,
  type GenerationEngine,
} from './engines/engine.types.js';
import { uploadsForGenerationRepository } from './generation-inputs.repository.js';
import { variantWidths } from './generations.models.js';
import { generationsRepository, type GenerationRow } from './generations.repository.js';
import type { StoredResult } from './generations.serializers.js';
import { encodeResultOriginal } from './result-encoding.js';
import { completeGeneration, failGeneration } from './generations.usecases.js';

export const runGenerationJob = defineJob({
  name: 'generations:run',
  payload: z.object({ generationId: z.number().int() }),
  maxAttempts: 3,
});

/**
 * Runs one generation. Safe to run twice or after a crash: only a run that claims the generation
 * (NEW/IN_QUEUE → IN_PROGRESS in one conditional UPDATE) does the work, the engine is called
 * outside any transaction, and completing or failing is again a conditional change.
 */
export async function runGeneration(deps: AppDeps, generationId: number, run: JobRun): Promise<void> {
  const found = await generationsRepository.findById(deps.db, generationId);
  if (!found || isTerminalStatus(found.status)) return;
  const generation = await generationsRepository.transition(
    deps.db,
    generationId,
    GenerationStatus.IN_PROGRESS,
    {
      startedAt: deps.now(),
    },
  );
  if (!generation) return; // another run holds it, or it just ended

  let output: EngineOutput;
  try {
    const engine = deps.engines.engineFor(generation.mode as never);
    output = await callEngine(deps, engine, generation);
  } catch (error) {
    const engineError =
      error instanceof EngineError
        ? error
        : new EngineError('engine.failed', String((error as Error)?.message ?? error), true);
    if (engineError.retryable && run.attempt < run.maxAttempts) {
      // Back to the queue; graphile-worker retries the job with backoff.
      await generationsRepository.transition(deps.db, generation.id, GenerationStatus.IN_QUEUE);
      throw engineError;
    }
    deps.logger.warn({ generation: generation.uuid, err: engineError }, 'generation failed');
    await failGeneration(deps, generation, {
      status: engineError.retryable ? GenerationStatus.FAILED : GenerationStatus.ERROR,
      code: engineError.code === 'engine.bad_input' ? 'generations.bad_input' : 'generations.engine_failed',
      detail: engineError.retryable
        ? 'The generation failed on our side. Your credits were refunded.'
        : engineError.message,
      reason: engineError.reason,
    });
    return;
  }

  try {
    await finishGeneration(deps, generation, output);
  } catch (error) {
    // Checking, storing or completing broke (the classifier, storage or the database): the
    // claim must not outlive this run, or the retry would find it IN_PROGRESS, do nothing, and
    // the user would wait for the reconciler. Back to the queue while attempts remain.
    // Files half-stored by this run go only once the generation is known not to be complete.
    if (run.attempt < run.maxAttempts) {
      const requeued = await generationsRepository.transition(
        deps.db,
        generation.id,
        GenerationStatus.IN_QUEUE,
      );
      if (requeued) await deps.storage.deletePrefix(resultPrefix(generation));
      throw error;
    }
    deps.logger.warn({ generation: generation.uuid, err: error }, 'generation failed after the engine');
    const failed = await failGeneration(deps, generation, {
      status: GenerationStatus.FAILED,
      code: 'generations.engine_failed',
      detail: 'The generation failed on our side. Your credits were refunded.',
    });
    if (failed) await deps.storage.deletePrefix(resultPrefix(generation));
  }
}

/** The engine's output is checked, stored with its variants, and the generation completed. */
async function finishGeneration(deps: AppDeps, generation: GenerationRow, output: EngineOutput) {
  // A video is checked by its poster (its first frame: the photo it animates).
  const still = stillOf(output);
  if (still && !output.procedural) {
    const verdict = await deps.imageModerator.check(still);
    if (verdict.flagged) {
      await failGeneration(deps, generation, {
        status: GenerationStatus.ERROR,
        code: 'generations.result_moderated',
        detail: 'Moderation failed, credits refunded',
      });
      return;
    }
  }

  const result = await storeResult(deps, generation, output);
  const completed = await completeGeneration(deps, generation, result);
  // Ended meanwhile (the reconciler gave up on it): nobody will show these files.
  if (!completed) await deps.storage.deletePrefix(resultPrefix(generation));
}

async function callEngine(
  deps: AppDeps,
  engine: GenerationEngine,
  generation: GenerationRow,
): Promise<EngineOutput> {
  const signal = AbortSignal.timeout(deps.config.generationTimeoutSeconds * 1000);
  const context = {
    signal,
    onProgress: (progress: number) =>
      generationsRepository.setProgress(
        deps.db,
        generation.id,
        Math.max(0, Math.min(99, Math.round(progress))),
      ),
  };
  const images = await loadInputs(deps, generation);
  // Only face swap uses the model; other modes keep whatever model_uuid they were sent, unread.
  const faceModel =
    generation.mode === 'face_swap' && generation.modelUuid
      ? await loadFaceModel(deps, generation)
      : undefined;
  const request = {
    generationUuid: generation.uuid,
    mode: generation.mode as never,
    prompt: generation.prompt,
    guidance: generation.guidance,
    seed: generation.seed,
    style: generation.style as never,
    durationSeconds: generation.durationSeconds,
    aspect: generation.aspect as never,
    images,
    faceModel,
  };
  let started =
    generation.providerJobId && engine.poll
      ? ({ kind: 'pending', providerJobId: generation.providerJobId } as const)
      : await engine.start(request, context);
  while (started.kind === 'pending') {
    // A provider job: remember its id so a retry resumes it instead of paying for a new one.
    if (!generation.providerJobId) {
      await generationsRepository.update(deps.db, generation.id, { providerJobId: started.providerJobId });
    }
    if (!engine.poll) throw new EngineError('engine.failed', `${engine.name} cannot be polled`, false);
    const polled = await engine.poll(started.providerJobId, context);
    if (polled.kind === 'done') return polled.output;
    if (polled.kind === 'failed') throw polled.error;
    await context.onProgress(polled.progress);
    if (signal.aborted) throw new EngineError('engine.timeout', 'The engine took too long.', true);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    started = { kind: 'pending', providerJobId: started.providerJobId };
  }
  return started.output;
}

async function loadInputs(deps: AppDeps, generation: GenerationRow): Promise<EngineImage[]> {
  const rows = await uploadsForGenerationRepository.findOwned(
    deps.db,
    generation.userId,
    generation.inputUploads,
  );
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  const images: EngineImage[] = [];
  for (const uuid of generation.inputUploads) {
    const row = byUuid.get(uuid);
    const file = row ? await deps.storage.get(row.storageKey) : null;
    if (!row || !file)
      throw EngineError.badInput('photo_deleted', 'The photo for this generation was deleted.');
    images.push({ data: file.data, contentType: file.contentType, width: row.width, height: row.height });
  }
  return images;
}

/** The generation's digital model for the engine; deleted since it was asked for → bad input. */
async function loadFaceModel(deps: AppDeps, generation: GenerationRow): Promise<EngineFaceModel | undefined> {
  if (!generation.modelUuid) return undefined;
  const trained = await findTrainedModel(deps, generation.userId, generation.modelUuid);
  if (!trained) {
    throw EngineError.badInput('model_deleted', 'The digital model for this generation was deleted.');
  }
  return {
    uuid: trained.model.uuid,
    profile: trained.profile,
    async loadReferencePhoto(photoId) {
      const data = await loadModelPhoto(deps, trained.model.id, photoId);
      if (!data) {
        throw EngineError.badInput(
          'model_photo_deleted',
          'A photo of your digital model was deleted. Try again.',
        );
      }
      return data;
    },
  };
}

/** The picture itself, or a video's poster frame; none for a video without one. */
const stillOf = (output: EngineOutput): Buffer | null =>
  output.contentType.startsWith('image/') ? output.data : (output.poster ?? null);

const resultPrefix = (generation: GenerationRow) => `results/${generation.userId}/${generation.uuid}`;

/** Keeps the original for download (JPEG unless transparent) and WebP renditions for lists. */
async function storeResult(
  deps: AppDeps,
  generation: GenerationRow,
  output: EngineOutput,
): Promise<StoredResult> {
  const prefix = resultPrefix(generation);
  const original = await encodeResultOriginal(output.data, output.contentType);
  const extension =
    original.contentType === 'video/mp4' ? 'mp4' : original.contentType === 'image/jpeg' ? 'jpg' : 'png';
  const originalKey = `${prefix}/original.${extension}`;
  await deps.storage.put(originalKey, original.data, original.contentType);
  const variants: StoredResult['variants'] = [];
  // WebP renditions of the picture, or of a video's poster (lists and the player show it).
  const still = stillOf(output);
  if (still) {
    for (const width of variantWidths(output.width)) {
      const { data, info } = await sharp(still)
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer({ resolveWithObject: true });
      const key = `${prefix}/w${info.width}.webp`;
      await deps.storage.put(key, data, 'image/webp');
      variants.push({ key, width: info.width, height: info.height });
    }
  }
  return {
    original: {
      key: originalKey,
      width: output.width,
      height: output.height,
      contentType: original.contentType,
    },
    variants,
    engine: generation.engine,
    notes: output.notes,
    procedural: output.procedural ?? false,
  };
}

/**
 * Fails and refunds generations that stopped moving: a worker killed mid-job, a provider that
 * never answered. Runs every minute.
 */
export async function reconcileStuckGenerations(deps: AppDeps): Promise<number> {
  const before = new Date(deps.now().getTime() - deps.config.generationTimeoutSeconds * 1000);
  const stale = await generationsRepository.findStale(deps.db, before, 100);
  let failed = 0;
  for (const generation of stale) {
    const ended = await failGeneration(deps, generation, {
      status: GenerationStatus.FAILED,
      code: 'generations.timeout',
      detail: 'The generation took too long and was stopped. Your credits were refunded.',
    });
    if (ended) failed++;
  }
  if (failed) deps.logger.warn({ failed }, 'stopped and refunded stuck generations');
  return failed;
}

/**
 * The run of a `generations:run` job died with its worker and the job is about to run again: the
 * generation goes back to the queue so the rerun claims it (a claim takes only NEW/IN_QUEUE).
 */
export async function requeueGenerationOfDeadRun(tx: DbOrTx, payload: unknown): Promise<void> {
  const parsed = runGenerationJob.payload.safeParse(payload);
  if (parsed.success) await generationsRepository.requeueInProgress(tx, parsed.data.generationId);
}

/**
 * Fails and refunds, once, generations IN_PROGRESS that no job can run any more (the worker died
 * on the last attempt, or the job is gone): nothing would ever finish them.
 */
export async function failOrphanedGenerations(deps: AppDeps): Promise<number> {
  const orphaned = await generationsRepository.findInProgressWithoutRunnableJob(
    deps.db,
    runGenerationJob.name,
    100,
  );
  let failed = 0;
  for (const generation of orphaned) {
    const ended = await failGeneration(deps, generation, {
      status: GenerationStatus.FAILED,
      code: 'generations.engine_failed',
      detail: 'The generation failed on our side. Your credits were refunded.',
    });
    if (ended) failed++;
  }
  if (failed) deps.logger.warn({ failed }, 'failed and refunded generations no job can run any more');
  return failed;
}

export function generationsJobHandlers(deps: AppDeps) {
  return {
    [runGenerationJob.name]: toTask(runGenerationJob, ({ generationId }, run) =>
      runGeneration(deps, generationId, run),
    ),
    'generations:reconcile': async () => {
      await reconcileStuckGenerations(deps);
    },
  };
}
