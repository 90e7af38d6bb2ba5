import {
  GENERATION_MODES,
  GenerationStatus,
  type TAdminGeneration,
  type TGenerationMode,
  type TGenerationStatus,
} from '@mirra/contracts';
import type { GenerationsDeps } from './generations.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { addJob } from '../../shared/jobs.js';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import { applyCreditChange, getCreditBalance } from '../credits/index.js';
import { runGenerationJob } from './generations.jobs.definitions.js';
import { generationNotFound } from './generations.usecases.js';
import { generationsRepository, type GenerationRow } from './generations.repository.js';

/** How many generations staff see in one list. */
export const STAFF_GENERATION_LIST_LIMIT = 100;

export function toStaffGenerationJson(row: GenerationRow & { userUuid: string }): TAdminGeneration {
  return {
    uuid: row.uuid,
    user_uuid: row.userUuid,
    mode: row.mode as TGenerationMode,
    status: row.status as TGenerationStatus,
    prompt: row.prompt,
    cost: row.cost,
    engine: row.engine,
    provider: row.provider,
    provider_job_id: row.providerJobId,
    error_code: row.errorCode,
    error_detail: row.errorDetail,
    error_reason: row.errorReason,
    refunded: row.refunded,
    likeness: row.likeness,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** The latest failed generations (ERROR and FAILED), newest first, with what went wrong. */
export async function listFailedGenerations(deps: Pick<GenerationsDeps, 'db'>): Promise<TAdminGeneration[]> {
  const rows = await generationsRepository.listFailedForStaff(deps.db, STAFF_GENERATION_LIST_LIMIT);
  return rows.map(toStaffGenerationJson);
}

/** A person's latest generations, newest first, as staff see them. */
export async function listGenerationsForStaff(
  deps: Pick<GenerationsDeps, 'db'>,
  userId: number,
  limit = 30,
): Promise<TAdminGeneration[]> {
  const rows = await generationsRepository.listForStaff(deps.db, userId, limit);
  return rows.map(toStaffGenerationJson);
}

/**
 * Staff give a generation's credits back, in the caller's transaction. It uses the refund's one
 * idempotency key, the one a failure uses, so a generation is refunded at most once however often
 * it is asked (or whether it failed on its own first).
 */
export async function refundGenerationByStaff(
  deps: Pick<GenerationsDeps, 'db' | 'now'>,
  tx: DbOrTx,
  uuid: string,
  record: RecordStaffChange,
): Promise<{ refunded: boolean; balance: number }> {
  const generation = await generationsRepository.lockByUuid(tx, uuid);
  if (!generation) throw generationNotFound();
  if (generation.cost <= 0) {
    return { refunded: false, balance: await getCreditBalance(deps, generation.userId) };
  }
  const outcome = await applyCreditChange(tx, {
    userId: generation.userId,
    delta: generation.cost,
    kind: 'generation_refund',
    ref: generation.uuid,
    idempotencyKey: `gen:${generation.uuid}:refund`,
  });
  if (!outcome.applied) return { refunded: false, balance: outcome.balance };
  await generationsRepository.update(tx, generation.id, deps.now(), { refunded: true });
  await record(tx, {
    before: { uuid: generation.uuid, refunded: generation.refunded, cost: generation.cost },
    after: { uuid: generation.uuid, refunded: true, cost: generation.cost },
  });
  return { refunded: true, balance: outcome.balance };
}

/** The engines each mode can run on now (configured in this build and serving the mode). */
export function retryEnginesByMode(deps: Pick<GenerationsDeps, 'engines'>) {
  return GENERATION_MODES.map((mode) => ({
    mode,
    engines: deps.engines
      .engineNames()
      .filter((name) => deps.engines.byName(name)?.supports(mode))
      .sort(),
  }));
}

/**
 * Staff run a failed (ERROR or FAILED) generation again, in the caller's transaction: it goes
 * back to NEW with its errors cleared and its job queued anew. With `engine`, only that engine
 * runs it (no fallback list); without, the mode's engines in their configured order.
 *
 * The rule for money: a retry charges nothing. The person paid once, when they asked for it; if
 * the failure refunded them, the retry is on the house. A generation is refunded at most once (the
 * refund's one ledger key), so a retry that fails again gives back nothing more.
 */
export async function retryGenerationByStaff(
  deps: Pick<GenerationsDeps, 'db' | 'now' | 'engines' | 'config'>,
  tx: DbOrTx,
  uuid: string,
  engineName: string | null,
  record: RecordStaffChange,
): Promise<TAdminGeneration> {
  const generation = await generationsRepository.lockByUuid(tx, uuid);
  if (!generation) throw generationNotFound();
  if (generation.status !== GenerationStatus.ERROR && generation.status !== GenerationStatus.FAILED) {
    throw new AppError({
      code: 'generations.not_retryable',
      detail: 'Only a generation that failed can be retried.',
    });
  }
  const mode = generation.mode as TGenerationMode;
  let engine: string;
  if (engineName) {
    if (!deps.engines.byName(engineName)?.supports(mode)) {
      throw fieldError('generations.mode_unavailable', {
        engine: [`The engine ${engineName} is not configured for ${mode}.`],
      });
    }
    engine = engineName;
  } else {
    engine = deps.engines.engineFor(mode).name;
  }
  const now = deps.now();
  await generationsRepository.update(tx, generation.id, now, {
    status: GenerationStatus.NEW,
    progress: 0,
    engine,
    enginePinned: engineName !== null,
    provider: null,
    providerJobId: null,
    providerCostUsd: null,
    queuePosition: null,
    result: null,
    errorCode: null,
    errorDetail: null,
    errorReason: null,
    startedAt: null,
    finishedAt: null,
  });
  // The same job key: graphile-worker replaces the spent job with a fresh one (attempts from 0).
  await addJob(
    tx,
    runGenerationJob,
    { generationId: generation.id },
    { jobKey: `generation:${generation.id}`, maxAttempts: deps.config.generationMaxAttempts },
  );
  await record(tx, {
    before: {
      status: generation.status,
      engine: generation.engine,
      error_code: generation.errorCode,
      refunded: generation.refunded,
    },
    after: { status: GenerationStatus.NEW, engine, engine_pinned: engineName !== null, charged: 0 },
  });
  return toStaffGenerationJson((await generationsRepository.findForStaff(tx, generation.id))!);
}
