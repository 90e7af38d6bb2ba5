import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  GenerationStatus,
  isTerminalStatus,
  type TGeneration,
  type TGenerationMode,
  type TGenerationStatus,
  type ZCreateGenerationBody,
  type TGenerationFailureReason,
  type TUpload,
  VIDEO_ASPECT_DEFAULT,
  aspectsOf,
  billedSeconds,
  imageCountOf,
  keepModeInputs,
  modeDeclaration,
  type TFreeTier,
} from '@mirra/contracts';
import type { GenerationsDeps } from './generations.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { jobContextFields } from '../../shared/jobs.js';
import { readIdCursorPage } from '../../shared/id-cursor-paging.js';
import { recordGenerationEnded } from '../../shared/metrics.js';
import { notifyUser } from '../notifications/index.js';
import { copyStoredImageAsUpload } from '../uploads/index.js';
import {
  priceGeneration,
  applyCreditChange,
  getCreditBalance,
  insufficientCredits,
} from '../credits/index.js';
import type { UserRow } from '../users/index.js';
import { isOwnModel } from '../models/index.js';
import { photoPackRun } from '../photo-packs/index.js';
import {
  generationJobPriority,
  generationRequestHash,
  isSameKeyedRequest,
  isValidIdempotencyKey,
  randomSeed,
  startOfLocalDay,
} from './generations.models.js';
import {
  acceptRefusalOf,
  generationsRepository,
  type AcceptGenerationInput,
  type GenerationRow,
} from './generations.repository.js';
import { toGenerationJson, type StoredResult } from './generations.serializers.js';
import { runGenerationJob } from './generations.jobs.definitions.js';
import { checkAspect, checkVideoDuration, validateRequest } from './generation-validation.js';

type CreateBody = z.output<typeof ZCreateGenerationBody>;

export interface RequestContext {
  /**
   * Minutes, as the browser's getTimezoneOffset() (the `timezone` cookie): where the free tier's
   * next day starts, never sooner than 24 h after the current one.
   */
  timezoneOffsetMinutes: number;
  /**
   * The `Idempotency-Key` header of a create or repeat, as sent: the same key again with the same
   * inputs (a resend after a lost answer) returns the generation it made, charged once, instead
   * of making another; with other inputs it is refused, and so is a malformed key.
   */
  idempotencyKey?: string | null;
}

const idempotencyKeyInvalid = () =>
  new AppError({
    code: 'generations.idempotency_key_invalid',
    detail: 'The Idempotency-Key header must be 8 to 128 letters, digits, "-" or "_".',
  });

const idempotencyKeyReused = () =>
  new AppError({
    code: 'generations.idempotency_key_reused',
    detail: 'This Idempotency-Key was already used for a request with other inputs. Send a new key.',
  });

/** The generation a keyed request already made, if any; the key with other inputs is refused. */
async function findKeyedGeneration(
  db: DbOrTx,
  userId: number,
  key: { clientKey: string; requestHash: string } | null,
): Promise<GenerationRow | undefined> {
  if (!key) return undefined;
  const made = await generationsRepository.findByClientKey(db, userId, key.clientKey);
  if (made && !isSameKeyedRequest(made.clientRequestHash, key.requestHash)) throw idempotencyKeyReused();
  return made;
}

export const generationNotFound = () => new AppError({ code: 'generations.not_found', detail: 'Not found.' });

/**
 * The price of a request for the caller (every picture of a run: the price is per picture), their
 * balance, and how long the free tier makes them wait.
 */
export async function quoteGeneration(
  deps: GenerationsDeps,
  user: UserRow | null,
  query: { mode: TGenerationMode; duration?: number; count?: number; pack?: string },
  context: RequestContext,
) {
  // No price for a mode that cannot run, or a length that is not offered: it answers as starting
  // it would.
  deps.engines.engineFor(query.mode);
  checkVideoDuration(query.mode, query.duration);
  const pricing = await deps.pricing.current();
  const cost =
    modeDeclaration(query.mode).inputs.settings.pack && query.pack
      ? (await photoPackRun(deps, query.pack)).price
      : generationCost(pricing, query.mode, query.duration) * imageCountOf(query.mode, query.count);
  if (!user) return { cost, balance: null, wait_seconds: 0 };
  const [balance, wait] = await Promise.all([
    getCreditBalance(deps, user.id),
    generationsRepository.freeTier(deps.db, user.id, freeTierTerms(deps.now(), context, pricing.free_tier)),
  ]);
  return { cost, balance, wait_seconds: wait.waitSeconds };
}

/**
 * The price of a request: what /price/ shows and what the create charges are this one function,
 * with the length the video renders for (the default when none is asked for).
 */
function generationCost(
  pricing: Awaited<ReturnType<GenerationsDeps['pricing']['current']>>,
  mode: TGenerationMode,
  duration: number | null | undefined,
): number {
  return priceGeneration(mode, { durationSeconds: duration }, pricing.prices);
}

/**
 * What a run makes: each picture's description, frame shape and charge, and what the whole run
 * costs. A photo pack makes a picture per prompt of the pack, in its frame shape, each charged its
 * share of the pack's price; any other run makes its count of the same request at the mode's price.
 */
async function planRun(
  deps: GenerationsDeps,
  body: ReturnType<typeof keepModeInputs<CreateBody>>,
  cost: number,
): Promise<{ pictures: Array<{ prompt: string; aspect: string | null; cost: number }>; total: number }> {
  if (body.settings.pack) {
    const pack = await photoPackRun(deps, body.settings.pack);
    return {
      pictures: pack.prompts.map((prompt, index) => ({
        prompt,
        aspect: pack.aspect,
        cost: pack.shares[index]!,
      })),
      total: pack.price,
    };
  }
  const count = imageCountOf(body.mode, body.count);
  const picture = { prompt: body.prompt, aspect: storedAspect(body.mode, body.aspect), cost };
  return { pictures: Array.from({ length: count }, () => picture), total: cost * count };
}

/**
 * What the free tier's decision (mirra_free_tier) is asked with, the same for /price/ and for the
 * accept: the moment, the latest local midnight by the timezone cookie, and the tier's terms.
 */
function freeTierTerms(now: Date, context: RequestContext, freeTier: TFreeTier) {
  return {
    now,
    localMidnight: startOfLocalDay(now, context.timezoneOffsetMinutes),
    dailyFree: freeTier.daily_photos,
    delaySeconds: freeTier.delay_seconds,
  };
}

/**
 * The frame shape stored: a video's (9:16 when none is asked for), or a picture's that was asked
 * for; null for a picture that keeps its photo's shape.
 */
function storedAspect(mode: TGenerationMode, aspect: string | null | undefined): string | null {
  const { inputs } = modeDeclaration(mode);
  if (inputs.video) return aspect ?? VIDEO_ASPECT_DEFAULT;
  return aspectsOf(mode).length > 0 ? (aspect ?? null) : null;
}

function rateLimited(freeTier: TFreeTier, waitSeconds: number): AppError {
  const { daily_photos: dailyPhotos, delay_seconds: delaySeconds } = freeTier;
  return new AppError({
    code: 'generations.rate_limited',
    detail: `The first ${dailyPhotos} photos a day are unrestricted, then ${delaySeconds} seconds between generations. Wait ${waitSeconds} seconds or get unlimited.`,
    extra: { wait_seconds: waitSeconds, first: dailyPhotos, seconds: delaySeconds },
    headers: { 'retry-after': String(waitSeconds) },
  });
}

/** The answer to a refusal of mirra_accept_generation; any other error as it came. */
function acceptRefusalError(freeTier: TFreeTier, error: unknown, cost: number): unknown {
  const refusal = acceptRefusalOf(error);
  if (!refusal) return error;
  if (refusal.code === 'generations.rate_limited') return rateLimited(freeTier, refusal.waitSeconds);
  if (refusal.code === 'credits.insufficient') return insufficientCredits(refusal.balance, cost);
  return idempotencyKeyReused();
}

/**
 * Creates a generation: one statement (mirra_accept_generation) checks the free tier under the
 * balance lock, inserts it as NEW, debits the credits and enqueues its job, so a crash can never
 * leave a charged generation without a job, or a job without its charge.
 */
export async function createGeneration(
  deps: GenerationsDeps,
  user: UserRow,
  request: CreateBody,
  context: RequestContext,
  options: { repeatOf?: string } = {},
): Promise<TGeneration> {
  // A model the mode does not use is dropped, not stored; but one that is not the caller's is
  // refused in every mode, as face swap refuses it, so nobody's model can be named through another.
  if (request.model_uuid && !(await isOwnModel(deps, user.id, request.model_uuid))) {
    throw fieldError('generations.model_unavailable', {
      model_uuid: ['This model was not found or is not trained yet.'],
    });
  }
  checkAspect(request.mode, request.aspect);
  const body = keepModeInputs(request);
  const clientKey = context.idempotencyKey ?? null;
  if (clientKey !== null && !isValidIdempotencyKey(clientKey)) throw idempotencyKeyInvalid();
  const keyed = clientKey
    ? { clientKey, requestHash: generationRequestHash({ ...body, repeatOf: options.repeatOf }) }
    : null;
  const earlier = await findKeyedGeneration(deps.db, user.id, keyed);
  if (earlier) return toGenerationJson(earlier, deps.mediaUrls, deps.now());
  await validateRequest(deps, user, body);
  // A post to repeat or remix must be published (or mine); repeating my own generation keeps
  // going without it if the post has since gone.
  const source = await deps.generationSources.resolve(deps, user.id, body, {
    lenient: Boolean(options.repeatOf),
  });
  const engine = deps.engines.engineFor(body.mode);
  // Read once: the generation is accepted, charged and later refunded at this price, whatever the
  // console changes meanwhile.
  const pricing = await deps.pricing.current();
  const plan = await planRun(deps, body, generationCost(pricing, body.mode, body.duration));
  const count = plan.pictures.length;
  const now = deps.now();
  // The pictures of a run: each its own generation (its own seed, job, charge and refund), so a
  // picture that fails is refunded by itself and the others are kept; the first one's uuid names
  // the set.
  const uuids = Array.from({ length: count }, () => randomUUID());
  const firstSeed = body.seed ?? randomSeed();
  const inputOf = (uuid: string, index: number): AcceptGenerationInput => ({
    row: {
      ...plan.pictures[index]!,
      uuid,
      // From the app's clock, which the free tier's day and pause are measured against.
      createdAt: now,
      userId: user.id,
      mode: body.mode,
      guidance: body.guidance,
      // A chosen seed makes the run's pictures with seeds that follow it, so it is repeatable.
      seed: index === 0 ? firstSeed : body.seed != null ? (firstSeed + index) % 2 ** 31 : randomSeed(),
      seedFixed: body.seed != null,
      style: body.style ?? null,
      // The length it renders for and was priced for, stored so every engine reads the same.
      durationSeconds: billedSeconds(body.mode, body.duration),
      inputUploads: body.images,
      modelUuid: body.model_uuid ?? null,
      postUuid: source?.postUuid ?? null,
      repeatOf: options.repeatOf ?? null,
      engine: engine.name,
      // The key names the run: a resend finds its first picture, and with it the set.
      clientKey: index === 0 ? clientKey : null,
      clientRequestHash: index === 0 ? (keyed?.requestHash ?? null) : null,
      settings: body.settings ?? {},
      setUuid: count > 1 ? uuids[0]! : null,
      setIndex: count > 1 ? index : null,
      setSize: count > 1 ? count : null,
    },
    run: { cost: plan.total, first: index === 0 },
    freeTier: freeTierTerms(now, context, pricing.free_tier),
    charge: { kind: 'generation_charge', idempotencyKey: `gen:${uuid}:charge` },
    job: {
      identifier: runGenerationJob.name,
      payload: jobContextFields(),
      maxAttempts: deps.config.generationMaxAttempts,
      premiumPriority: generationJobPriority(true),
      standardPriority: generationJobPriority(false),
    },
  });
  let row: GenerationRow;
  try {
    // One transaction: every picture of the run is accepted and charged, or none is; a generation
    // from a post also records the use of the post, only when this request made it (not on a
    // keyed resend, which answers with the run's first picture).
    // A single picture not from a post is one statement, no transaction needed.
    row =
      count === 1 && !source
        ? await generationsRepository.accept(deps.db, inputOf(uuids[0]!, 0))
        : await deps.db.transaction(async (tx) => {
            const first = await generationsRepository.accept(tx, inputOf(uuids[0]!, 0));
            if (first.uuid !== uuids[0]) return first;
            for (let index = 1; index < count; index += 1) {
              await generationsRepository.accept(tx, inputOf(uuids[index]!, index));
            }
            if (source) await deps.generationSources.record(tx, first.id, source);
            return first;
          });
  } catch (error) {
    throw acceptRefusalError(pricing.free_tier, error, plan.total);
  }
  return toGenerationJson(row, deps.mediaUrls, deps.now());
}

/**
 * Starts the same request again (same prompt and settings), charged anew, as a new variation: a
 * seed drawn at random is drawn again (the same seed would make the same picture for the same
 * price); a seed the person chose in the advanced settings is kept.
 */
export async function repeatGeneration(
  deps: GenerationsDeps,
  user: UserRow,
  uuid: string,
  context: RequestContext,
): Promise<TGeneration> {
  const source = await generationsRepository.findByUuidForUser(deps.db, uuid, user.id);
  if (!source) throw generationNotFound();
  return createGeneration(
    deps,
    user,
    {
      mode: source.mode as TGenerationMode,
      prompt: source.prompt,
      guidance: source.guidance,
      images: source.inputUploads,
      model_uuid: source.modelUuid,
      post_uuid: source.postUuid,
      style: source.style as CreateBody['style'],
      seed: source.seedFixed ? source.seed : null,
      duration: source.durationSeconds,
      aspect: source.aspect as CreateBody['aspect'],
    },
    context,
    { repeatOf: source.uuid },
  );
}

export async function getGeneration(
  deps: GenerationsDeps,
  user: UserRow,
  uuid: string,
): Promise<TGeneration> {
  const row = await generationsRepository.findByUuidForUser(deps.db, uuid, user.id);
  if (!row) throw generationNotFound();
  return toGenerationJson(row, deps.mediaUrls, deps.now());
}

/**
 * The picture of one of my completed generations as one of my uploads, to start a new generation
 * from it. The server copies the stored original, so the browser never fetches the file from the
 * store (with S3 a cross-origin request) to upload it again; the same upload comes back each time.
 */
export async function useGenerationResult(
  deps: GenerationsDeps,
  user: UserRow,
  uuid: string,
): Promise<TUpload> {
  const row = await generationsRepository.findByUuidForUser(deps.db, uuid, user.id);
  const original = row?.status === GenerationStatus.COMPLETED ? row.result?.original : undefined;
  if (!row || !original?.contentType.startsWith('image/')) throw generationNotFound();
  const upload = await copyStoredImageAsUpload(deps, user.id, `generation-result:${user.id}:${row.uuid}`, {
    ...original,
    generationId: row.id,
  });
  if (!upload) throw generationNotFound();
  return upload;
}

/** The pictures of one of my runs, in their order, on one page (a run has at most IMAGE_COUNT_MAX). */
export async function listGenerationSet(deps: GenerationsDeps, user: UserRow, setUuid: string) {
  const rows = await generationsRepository.listSet(deps.db, user.id, setUuid);
  const now = deps.now();
  return { results: rows.map((row) => toGenerationJson(row, deps.mediaUrls, now)), next: null };
}

export async function listGenerations(
  deps: GenerationsDeps,
  user: UserRow,
  cursor: string | undefined,
  limit: number,
) {
  const { page, next } = await readIdCursorPage(cursor, limit, (beforeId, take) =>
    generationsRepository.listForUser(deps.db, user.id, beforeId, take),
  );
  const now = deps.now();
  return { results: page.map((row) => toGenerationJson(row, deps.mediaUrls, now)), next };
}

/**
 * Ends a generation as ERROR or FAILED and refunds its credits, in one transaction, exactly once:
 * the conditional status change and the refund's idempotency key both guard against repeats.
 * Returns false when the generation had already ended.
 */
export async function failGeneration(
  deps: Pick<GenerationsDeps, 'db' | 'now'>,
  generation: GenerationRow,
  outcome: {
    status: typeof GenerationStatus.ERROR | typeof GenerationStatus.FAILED;
    code: string;
    detail: string;
    reason?: TGenerationFailureReason | null;
  },
): Promise<boolean> {
  const ended = await deps.db.transaction(async (tx) => {
    const ended = await generationsRepository.transition(
      tx,
      generation.id,
      deps.now(),
      outcome.status as TGenerationStatus,
      {
        errorCode: outcome.code,
        errorDetail: outcome.detail,
        errorReason: outcome.reason ?? null,
        finishedAt: deps.now(),
        refunded: generation.cost > 0,
      },
    );
    if (!ended) return false;
    if (generation.cost > 0) {
      await applyCreditChange(tx, {
        userId: generation.userId,
        delta: generation.cost,
        kind: 'generation_refund',
        ref: generation.uuid,
        idempotencyKey: `gen:${generation.uuid}:refund`,
      });
    }
    return true;
  });
  if (ended) {
    recordGenerationEnded(
      generation,
      { status: 'failed', reason: outcome.reason ?? outcome.code },
      deps.now(),
    );
  }
  return ended;
}

/**
 * Marks a generation COMPLETED with its stored result. Everything that must happen exactly once
 * when a generation completes (the prompt author's royalty, notifications) joins this
 * transaction here, so it happens if and only if the completion does.
 */
export async function completeGeneration(
  deps: Pick<GenerationsDeps, 'db' | 'now' | 'generationSources'>,
  generation: GenerationRow,
  result: StoredResult,
): Promise<GenerationRow | undefined> {
  const ended = await deps.db.transaction(async (tx) => {
    const completed = await generationsRepository.transition(
      tx,
      generation.id,
      deps.now(),
      GenerationStatus.COMPLETED,
      {
        result,
        progress: 100,
        finishedAt: deps.now(),
      },
    );
    if (!completed) return undefined;
    // Completion hooks of other features join here: the post author's royalty and use counter.
    await deps.generationSources.settle(tx, completed, deps.now());
    await notifyUser(tx, {
      userId: completed.userId,
      kind: 'generation_finished',
      data: { generation_uuid: completed.uuid, mode: completed.mode },
      dedupeKey: `generation_finished:${completed.uuid}`,
    });
    return completed;
  });
  if (ended) recordGenerationEnded(ended, { status: 'completed' }, deps.now());
  return ended;
}

export { isTerminalStatus };

/** The caller's own generation by uuid, read inside the caller's transaction when one is given. */
export const findOwnGeneration = (
  db: DbOrTx,
  uuid: string,
  userId: number,
): Promise<GenerationRow | undefined> => generationsRepository.findByUuidForUser(db, uuid, userId);
