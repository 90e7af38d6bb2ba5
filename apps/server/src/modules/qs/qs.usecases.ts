import { fieldMessages, type ZCreatedQs, type ZSavedQueryString } from '@mirra/contracts';
import type { z } from 'zod';
import type { QsDeps } from './qs.deps.js';
import { AppError, fieldError } from '../../shared/errors.js';
import type { UserRow } from '../users/index.js';
import { generateQsId, isQsId, normaliseQueryString, startParamFor } from './qs.models.js';
import { qsRepository } from './qs.repository.js';

/** Saves a query string under a fresh id for a `qs_<id>` Mini App link. */
export async function saveQueryString(
  deps: QsDeps,
  user: UserRow,
  rawQs: string,
): Promise<z.infer<typeof ZCreatedQs>> {
  const { rateLimits } = deps.config;
  await deps.rateLimiter.hit([
    { key: `qs:user:${user.id}`, limit: rateLimits.qsPerUser, windowSeconds: rateLimits.windowSeconds },
  ]);
  const qs = normaliseQueryString(rawQs);
  if (!qs) throw fieldError('common.validation', { qs: [fieldMessages.blank] });
  // 72 random bits: a clash is not worth a retry loop; the primary key would refuse it loudly.
  const row = await qsRepository.insert(deps.db, { id: generateQsId(), qs, userId: user.id });
  return { id: row.id, qs: row.qs, start_param: startParamFor(row.id) };
}

/** The query string behind a `qs_<id>` start parameter. Anyone holding the link may read it. */
export async function findQueryString(deps: QsDeps, id: string): Promise<z.infer<typeof ZSavedQueryString>> {
  // An id we could never have made is not looked up.
  const row = isQsId(id) ? await qsRepository.findById(deps.db, id) : undefined;
  if (!row) throw new AppError({ code: 'qs.not_found', detail: 'Not found.' });
  return { qs: row.qs };
}
