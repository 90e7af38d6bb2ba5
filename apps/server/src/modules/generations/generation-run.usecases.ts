import { GenerationStatus, isTerminalStatus, modeDeclaration, type TGenerationMode } from '@mirra/contracts';
import type { JobRun } from '../../shared/jobs.js';
import { findUsableModel, loadModelPhoto } from '../models/index.js';
import { deleteRecording } from '../uploads/index.js';
import {
  EngineError,
  engineNote,
  type EngineFaceModel,
  type EngineImage,
  type EngineOutput,
  type EngineRequest,
  type EngineToolSettings,
  type GenerationEngine,
  movesToNextEngine,
} from '../../engines/index.js';
import type { GenerationsDeps } from './generations.deps.js';
import { uploadsForGenerationRepository } from './generation-inputs.repository.js';
import { generationsRepository, type GenerationRow } from './generations.repository.js';
import { failGeneration } from './generations.usecases.js';
import {
  OUR_FAILURE,
  engineFailureOutcome,
  finishGeneration,
  resultPrefix,
} from './generation-finish.usecases.js';

/**
 * Runs one generation. Safe to run twice or after a crash: only a run that claims the generation
 * (NEW/IN_QUEUE → IN_PROGRESS in one conditional UPDATE) does the work, the engine is called
 * outside any transaction, and completing or failing is again a conditional change.
 */
export async function runGeneration(deps: GenerationsDeps, generationId: number, run: JobRun): Promise<void> {
  const found = await generationsRepository.findById(deps.db, generationId);
  if (!found || isTerminalStatus(found.status)) return;
  const generation = await generationsRepository.transition(
    deps.db,
    generationId,
    deps.now(),
    GenerationStatus.IN_PROGRESS,
    {
      startedAt: deps.now(),
    },
  );
  if (!generation) return; // another run holds it, or it just ended

  let made: { output: EngineOutput; engine: GenerationEngine } | 'finished elsewhere';
  try {
    made = await runEngines(deps, generation);
  } catch (error) {
    const engineError =
      error instanceof EngineError
        ? error
        : new EngineError('engine.failed', String((error as Error)?.message ?? error), true);
    if (engineError.retryable && run.attempt < run.maxAttempts) {
      // Back to the queue; graphile-worker retries the job with backoff.
      await generationsRepository.transition(deps.db, generation.id, deps.now(), GenerationStatus.IN_QUEUE);
      throw engineError;
    }
    deps.logger.warn({ generation: generation.uuid, err: engineError }, 'generation failed');
    await failGeneration(deps, generation, engineFailureOutcome(engineError));
    await forgetRecording(deps, generation);
    return;
  }
  if (made === 'finished elsewhere') return;
  const { output, engine } = made;
  if (engine.name !== generation.engine) {
    await generationsRepository.update(deps.db, generation.id, deps.now(), { engine: engine.name });
    generation.engine = engine.name;
  }

  try {
    await finishGeneration(deps, generation, output);
    await forgetRecording(deps, generation);
  } catch (error) {
    // Checking, storing or completing broke (the classifier, storage or the database): the
    // claim must not outlive this run, or the retry would find it IN_PROGRESS, do nothing, and
    // the user would wait for the reconciler. Back to the queue while attempts remain.
    // Files half-stored by this run go only once the generation is known not to be complete.
    if (run.attempt < run.maxAttempts) {
      const requeued = await generationsRepository.transition(
        deps.db,
        generation.id,
        deps.now(),
        GenerationStatus.IN_QUEUE,
      );
      if (requeued) await deps.storage.deletePrefix(resultPrefix(generation));
      throw error;
    }
    deps.logger.warn({ generation: generation.uuid, err: error }, 'generation failed after the engine');
    const failed = await failGeneration(deps, generation, OUR_FAILURE);
    if (failed) await deps.storage.deletePrefix(resultPrefix(generation));
    await forgetRecording(deps, generation);
  }
}

/**
 * A recorded voice serves only the engine of its generation: once the generation is done (made or
 * failed for good) the recording and its file are deleted.
 */
async function forgetRecording(deps: GenerationsDeps, generation: GenerationRow): Promise<void> {
  const voice = generation.settings?.voice;
  if (voice) await deleteRecording(deps, generation.userId, voice);
}

/**
 * Runs the mode's engines in order until one makes the result. A job a provider already accepted
 * is resumed with that provider by its stored id (never submitted again); before that, an outage
 * moves on to the next engine (movesToNextEngine).
 */
async function runEngines(
  deps: GenerationsDeps,
  generation: GenerationRow,
): Promise<{ output: EngineOutput; engine: GenerationEngine } | 'finished elsewhere'> {
  if (generation.providerJobId) {
    const engine = deps.engines.byName(generation.provider ?? generation.engine);
    if (!engine) {
      throw new EngineError('engine.failed', `The engine ${generation.provider} is not configured.`, false);
    }
    const request = await engineRequestOf(deps, generation);
    return withEngine(engine, await callEngine(deps, engine, generation, request, { submitted: false }));
  }
  const engines = enginesToRun(deps, generation);
  if (engines.length === 0) deps.engines.engineFor(generation.mode as never); // throws: mode unavailable
  // The photos and the digital model are read once, whichever engine of the list makes it.
  const request = await engineRequestOf(deps, generation);
  const unavailable: string[] = [];
  for (const [index, engine] of engines.entries()) {
    const attempt = { submitted: false };
    try {
      const output = await callEngine(deps, engine, generation, request, attempt);
      if (output !== 'finished elsewhere' && unavailable.length > 0) {
        const skipped = unavailable.join(', ');
        output.notes = [
          ...output.notes,
          engineNote('provider.fallback', `Made by ${engine.name}: ${skipped} unavailable.`, {
            engine: engine.name,
            unavailable: skipped,
          }),
        ];
      }
      return withEngine(engine, output);
    } catch (error) {
      const isLast = index === engines.length - 1;
      if (isLast || !(error instanceof EngineError) || !movesToNextEngine(error, attempt.submitted))
        throw error;
      deps.logger.warn(
        { generation: generation.uuid, engine: engine.name, err: error },
        'engine unavailable, trying the next one',
      );
      unavailable.push(engine.name);
    }
  }
  throw new EngineError('engine.failed', 'No engine made a result.', true);
}

/** The mode's engines in order, or the one engine staff pinned a retry to. */
function enginesToRun(deps: GenerationsDeps, generation: GenerationRow): GenerationEngine[] {
  if (!generation.enginePinned) return deps.engines.enginesFor(generation.mode as never);
  const engine = deps.engines.byName(generation.engine);
  if (!engine?.supports(generation.mode as never)) {
    throw new EngineError('engine.failed', `The engine ${generation.engine} is not configured.`, false);
  }
  return [engine];
}

const withEngine = (engine: GenerationEngine, output: EngineOutput | 'finished elsewhere') =>
  output === 'finished elsewhere' ? output : { output, engine };

/**
 * What the engines are asked: the generation with its photos and digital model. Read again on a
 * resumed job too, so a photo or model deleted meanwhile ends it as bad input.
 */
async function engineRequestOf(deps: GenerationsDeps, generation: GenerationRow): Promise<EngineRequest> {
  const images = await loadInputs(deps, generation);
  const settings = await loadSettings(deps, generation);
  // Only a mode that takes a model reads it; others keep whatever model_uuid they were sent, unread.
  const faceModel =
    modeDeclaration(generation.mode as TGenerationMode).inputs.model && generation.modelUuid
      ? await loadFaceModel(deps, generation)
      : undefined;
  return {
    generationUuid: generation.uuid,
    mode: generation.mode as never,
    prompt: generation.prompt,
    guidance: generation.guidance,
    seed: generation.seed,
    style: generation.style as never,
    durationSeconds: generation.durationSeconds,
    aspect: generation.aspect as never,
    settings,
    images,
    faceModel,
  };
}

/** The tool's settings with the uploads they name (a mask, a garment) loaded as images. */
async function loadSettings(deps: GenerationsDeps, generation: GenerationRow): Promise<EngineToolSettings> {
  const { mask, garment, voice, ...plain } = generation.settings ?? {};
  const [maskImage, garmentImage, voiceRecording] = await Promise.all(
    [mask, garment, voice].map((uuid) =>
      uuid ? loadUploads(deps, generation.userId, [uuid]).then((found) => found[0]) : undefined,
    ),
  );
  return {
    ...plain,
    ...(maskImage ? { mask: maskImage } : {}),
    ...(garmentImage ? { garment: garmentImage } : {}),
    ...(voiceRecording ? { voice: voiceRecording } : {}),
  };
}

async function callEngine(
  deps: GenerationsDeps,
  engine: GenerationEngine,
  generation: GenerationRow,
  request: EngineRequest,
  attempt: { submitted: boolean },
): Promise<EngineOutput | 'finished elsewhere'> {
  const signal = AbortSignal.timeout(deps.config.generationTimeoutSeconds * 1000);
  const context = {
    signal,
    onProgress: (progress: number) =>
      generationsRepository.setProgress(
        deps.db,
        generation.id,
        deps.now(),
        Math.max(0, Math.min(99, Math.round(progress))),
      ),
  };
  let started =
    generation.providerJobId && engine.poll
      ? ({ kind: 'pending', providerJobId: generation.providerJobId } as const)
      : await engine.start(request, context);
  let polls = 0;
  while (started.kind === 'pending') {
    // A provider job: remember its id (and whose it is) so a retry resumes it instead of paying for a new one.
    attempt.submitted = true;
    if (!generation.providerJobId) {
      // The engine that accepted it is the one that makes it, whoever finishes it (worker or webhook).
      await generationsRepository.update(deps.db, generation.id, deps.now(), {
        providerJobId: started.providerJobId,
        provider: engine.name,
        engine: engine.name,
      });
      generation.providerJobId = started.providerJobId;
      generation.provider = engine.name;
      generation.engine = engine.name;
    }
    if (!engine.poll) throw new EngineError('engine.failed', `${engine.name} cannot be polled`, false);
    // The provider's webhook may have finished it meanwhile, or sent it back to be made again
    // (too little likeness): then its job is no longer this one.
    const now = await generationsRepository.findById(deps.db, generation.id);
    if (!now || isTerminalStatus(now.status) || now.providerJobId !== generation.providerJobId)
      return 'finished elsewhere';
    const polled = await engine.poll(started.providerJobId, context);
    if (polled.kind !== 'running' || polled.queuePosition === undefined) {
      await generationsRepository.setQueuePosition(deps.db, generation.id, deps.now(), null);
    }
    if (polled.kind === 'done') return polled.output;
    if (polled.kind === 'failed') throw polled.error;
    // Waiting in the provider's queue: the user sees their place in it (it changes progress not).
    if (polled.queuePosition !== undefined) {
      await generationsRepository.setQueuePosition(deps.db, generation.id, deps.now(), polled.queuePosition);
    }
    await context.onProgress(polled.progress);
    if (signal.aborted) throw new EngineError('engine.timeout', 'The engine took too long.', true);
    // Polled every second at first, then less often up to every five (fal's webhook is faster).
    polls++;
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 1000 * 1.25 ** (polls - 1))));
    started = { kind: 'pending', providerJobId: started.providerJobId };
  }
  return started.output;
}

const loadInputs = (deps: GenerationsDeps, generation: GenerationRow): Promise<EngineImage[]> =>
  loadUploads(deps, generation.userId, generation.inputUploads);

/** The user's uploads as images, in order; one deleted since it was asked for → bad input. */
async function loadUploads(deps: GenerationsDeps, userId: number, uuids: string[]): Promise<EngineImage[]> {
  const rows = await uploadsForGenerationRepository.findOwned(deps.db, userId, uuids);
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  const images: EngineImage[] = [];
  for (const uuid of uuids) {
    const row = byUuid.get(uuid);
    const file = row ? await deps.storage.get(row.storageKey) : null;
    if (!row || !file)
      throw EngineError.badInput('photo_deleted', 'The photo for this generation was deleted.');
    images.push({ data: file.data, contentType: file.contentType, width: row.width, height: row.height });
  }
  return images;
}

/**
 * The generation's digital model for the engine: trained, or still in training with its photos
 * checked (`inTraining`: provider engines then make it from its reference photos); deleted since
 * it was asked for, or its training failed meanwhile → bad input.
 */
async function loadFaceModel(
  deps: GenerationsDeps,
  generation: GenerationRow,
): Promise<EngineFaceModel | undefined> {
  if (!generation.modelUuid) return undefined;
  const trained = await findUsableModel(deps, generation.userId, generation.modelUuid);
  if (!trained) {
    throw EngineError.badInput('model_deleted', 'The digital model for this generation was deleted.');
  }
  return {
    uuid: trained.model.uuid,
    profile: trained.profile,
    providerLoras: (trained.model.providerLoras ?? {}) as NonNullable<EngineFaceModel['providerLoras']>,
    inTraining: !trained.trained,
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
