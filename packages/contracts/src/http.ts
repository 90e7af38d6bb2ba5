import { z } from 'zod';

/**
 * Schemas of the HTTP layer itself, shared by many routes: path parameters, empty answers and
 * acknowledgements.
 */

/** `/<uuid>/` in a path: anything but a UUID is answered like a missing record. */
export const ZUuidParams = z.object({ uuid: z.uuid({ error: 'Not found.' }) });

/** The answer of a 204: no body at all. */
export const ZNoContent = z.null().describe('No content');

/** A bodiless POST that tolerates any JSON (clients send `{}` or nothing). */
export const ZAnyBody = z.unknown().optional();

/** A webhook's acknowledgement. */
export const ZOk = z.object({ ok: z.boolean() });

/** A webhook's acknowledgement with what was done. */
export const ZWebhookOutcome = z.object({ detail: z.string() });

/** A stored file's signed URL: `exp` and `sig` sign the path; `download` names an attachment. */
export const ZMediaQuery = z.object({
  exp: z.string().optional(),
  sig: z.string().optional(),
  download: z.string().max(120).optional(),
});
