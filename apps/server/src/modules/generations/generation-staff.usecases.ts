import type { TAdminGeneration, TGenerationMode, TGenerationStatus } from '@mirra/contracts';
import type { GenerationsDeps } from './generations.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import type { RecordStaffChange } from '../../shared/staff-audit.js';
import { applyCreditChange, getCreditBalance } from '../credits/index.js';
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
