import sharp from 'sharp';
import { GenerationStatus } from '@mirra/contracts';
import { animatedWebpPreview, bundledFfmpegPath } from '@mirra/imaging';
import type { EngineError, EngineOutput } from '../../engines/index.js';
import type { GenerationsDeps } from './generations.deps.js';
import { addJob } from '../../shared/jobs.js';
import { runGenerationJob } from './generations.jobs.definitions.js';
import { likenessRetrySeed, likenessVerdict, variantWidths } from './generations.models.js';
import { likenessOf } from './generation-likeness.js';
import { generationsRepository, type GenerationRow } from './generations.repository.js';
import type { StoredResult } from './generations.serializers.js';
import { completeGeneration, failGeneration } from './generations.usecases.js';
import { encodeResultOriginal } from './result-encoding.js';
import { withChosenBackground } from './generation-background.js';
import { markOutput, outputFacts, recordOutputHash } from '../provenance/index.js';

/*
 * How a generation ends, whoever ends it: the worker that ran or polled its engine, a provider's
 * webhook, or the reconcilers. Finishing checks, stores and completes (completing credits the
 * royalty and notifies); failing refunds. Both are conditional changes, so the second of two
 * finishers changes nothing.
 */

/** Our own failure (not the engine's answer, not the input): retried runs used up, refunded. */
export const OUR_FAILURE = {
  status: GenerationStatus.FAILED,
  code: 'generations.engine_failed',
  detail: 'The generation failed on our side. Your credits were refunded.',
} as const;

/**
 * The engine's output is checked, stored with its variants, and the generation completed.
 * `finisher` names who finishes it (the worker, or a provider's webhook): each stores its files
 * apart, so one that loses the race to complete removes only its own.
 */
export async function finishGeneration(
  deps: GenerationsDeps,
  generation: GenerationRow,
  output: EngineOutput,
  finisher: 'worker' | 'webhook' = 'worker',
) {
  output = await withChosenBackground(deps, generation, output);
  // A video is checked by its poster (its first frame: the photo it animates).
  // A provider's video also by frames spread over it: its later frames are the provider's own.
  const still = stillOf(output);
  const checked = [...(still ? [still] : []), ...(output.checkedFrames ?? [])];
  if (checked.length > 0 && !output.procedural) {
    let flagged = false;
    for (const frame of checked) {
      if ((await deps.imageModerator.check(frame)).flagged) {
        flagged = true;
        break;
      }
    }
    if (flagged) {
      await failGeneration(deps, generation, {
        status: GenerationStatus.ERROR,
        code: 'generations.result_moderated',
        detail: 'Moderation failed, credits refunded',
      });
      return;
    }
  }

  // A face result must look like the person: too little likeness is made again once, then refunded.
  const likeness = await likenessOf(deps, generation, output);
  if (likeness !== null) {
    await generationsRepository.update(deps.db, generation.id, deps.now(), { likeness });
    const verdict = likenessVerdict(likeness, deps.config.likenessThreshold, generation.likenessRetries);
    if (verdict === 'retry') {
      await retryForLikeness(deps, generation);
      return;
    }
    if (verdict === 'refund') {
      await failGeneration(deps, generation, LIKENESS_FAILURE);
      return;
    }
  }

  const result = await storeResult(deps, generation, output, finisher);
  if (output.provider) {
    await generationsRepository.update(deps.db, generation.id, deps.now(), {
      providerCostUsd: output.provider.costUsd,
    });
  }
  const completed = await completeGeneration(deps, generation, result);
  // Its look is kept so the verify page finds copies stripped of the manifest.
  if (completed && still)
    await recordOutputHash(deps, { generationId: generation.id, still, mode: generation.mode });
  // Ended meanwhile (the reconciler gave up on it, or the other finisher won): nobody will show these files.
  if (!completed) {
    const keys = [result.original.key, ...result.variants.map((variant) => variant.key)];
    if (result.preview) keys.push(result.preview.key);
    for (const key of keys) {
      await deps.storage.delete(key);
    }
  }
}

/** A face result that did not look like the person, after its retry: refunded. */
export const LIKENESS_FAILURE = {
  status: GenerationStatus.ERROR,
  code: 'generations.likeness_failed',
  detail: 'The picture did not look enough like the person of the digital model. Your credits were refunded.',
} as const;

/**
 * Makes a face result again, once: back to the queue with a new seed and no provider job (the
 * mode's engines run afresh), in one conditional change with its run job, so of two finishers
 * (the worker and a webhook) only one retries it, and a late one never puts the running retry
 * back in the queue. The picture that missed is never stored.
 */
async function retryForLikeness(deps: GenerationsDeps, generation: GenerationRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const requeued = await generationsRepository.requeueForLikeness(
      tx,
      generation.id,
      deps.now(),
      generation.likenessRetries,
      {
        seed: likenessRetrySeed(generation.seed),
        providerJobId: null,
        provider: null,
        queuePosition: null,
        progress: 0,
      },
    );
    if (!requeued) return;
    await addJob(
      tx,
      runGenerationJob,
      { generationId: generation.id },
      { jobKey: `generation:${generation.id}`, maxAttempts: deps.config.generationMaxAttempts },
    );
  });
}

/** How an engine's failure ends the generation: moderated, bad input or our failure; always refunded. */
export function engineFailureOutcome(error: EngineError) {
  if (error.code === 'engine.refused') {
    return {
      status: GenerationStatus.ERROR,
      code: 'generations.result_moderated',
      detail: 'Moderation failed, credits refunded',
    } as const;
  }
  return {
    status: error.retryable ? GenerationStatus.FAILED : GenerationStatus.ERROR,
    code: error.code === 'engine.bad_input' ? 'generations.bad_input' : 'generations.engine_failed',
    detail: error.retryable ? OUR_FAILURE.detail : error.message,
    reason: error.reason,
  } as const;
}

/** The picture itself, or a video's poster frame; none for a video without one. */
const stillOf = (output: EngineOutput): Buffer | null =>
  output.contentType.startsWith('image/') ? output.data : (output.poster ?? null);

export const resultPrefix = (generation: GenerationRow) => `results/${generation.userId}/${generation.uuid}`;

/** Keeps the original for download (JPEG unless transparent) and WebP renditions for lists. */
async function storeResult(
  deps: GenerationsDeps,
  generation: GenerationRow,
  output: EngineOutput,
  finisher: 'worker' | 'webhook',
): Promise<StoredResult> {
  const prefix = finisher === 'worker' ? resultPrefix(generation) : `${resultPrefix(generation)}/${finisher}`;
  // Marked as made by AI (XMP and a signed C2PA manifest) once, as stored: every download carries it;
  // a manifest the engine's own file carries is kept as its ingredient.
  const encoded = await encodeResultOriginal(output.data, output.contentType);
  const original = await markOutput(deps, encoded, outputFacts(generation), output);
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
  const preview =
    original.contentType === 'video/mp4' ? await storePreview(deps, prefix, original.data) : undefined;
  return {
    original: {
      key: originalKey,
      width: output.width,
      height: output.height,
      contentType: original.contentType,
    },
    variants,
    ...(preview ? { preview } : {}),
    engine: generation.engine,
    ...(output.provider ? { model: output.provider.model } : {}),
    notes: output.notes,
    procedural: output.procedural ?? false,
  };
}

/** Longest the preview of a video may take: a few seconds of video at a small size. */
const PREVIEW_TIMEOUT_MS = 60_000;

/**
 * A video's animated WebP for grids, from the MP4 itself (so a provider's video gets one too).
 * Lists fall back to the poster without it, so an encoder that cannot make one is logged, not fatal.
 */
async function storePreview(
  deps: GenerationsDeps,
  prefix: string,
  mp4: Buffer,
): Promise<StoredResult['preview']> {
  try {
    const data = await animatedWebpPreview({ path: bundledFfmpegPath(), mp4, timeoutMs: PREVIEW_TIMEOUT_MS });
    const { width, pageHeight, height } = await sharp(data, { animated: true }).metadata();
    const key = `${prefix}/preview.webp`;
    await deps.storage.put(key, data, 'image/webp');
    return { key, width: width ?? 0, height: pageHeight ?? height ?? 0 };
  } catch (error) {
    deps.logger.warn({ err: error }, 'the animated preview of a video could not be made');
    return undefined;
  }
}

/**
 * Fails and refunds generations that stopped moving: a worker killed mid-job, a provider that
 * never answered. Runs every minute.
 */
export async function reconcileStuckGenerations(deps: GenerationsDeps): Promise<number> {
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
 * Fails and refunds, once, generations IN_PROGRESS that no job can run any more (the worker died
 * on the last attempt, or the job is gone): nothing would ever finish them.
 */
export async function failOrphanedGenerations(deps: GenerationsDeps): Promise<number> {
  const orphaned = await generationsRepository.findInProgressWithoutRunnableJob(
    deps.db,
    runGenerationJob.name,
    100,
  );
  let failed = 0;
  for (const generation of orphaned) {
    const ended = await failGeneration(deps, generation, OUR_FAILURE);
    if (ended) failed++;
  }
  if (failed) deps.logger.warn({ failed }, 'failed and refunded generations no job can run any more');
  return failed;
}
