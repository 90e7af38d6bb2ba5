import { z } from 'zod';

/** DRF's standard field messages, so form errors read the same as the spec's client expects. */
export const fieldMessages = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  invalidEmail: 'Enter a valid email address.',
  notAString: 'Not a valid string.',
  maxLength: (max: number) => `Ensure this field has no more than ${max} characters.`,
} as const;

const requiredOr = (fallback: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? fieldMessages.required : fallback;

/** A required, trimmed, non-blank string with DRF messages. */
export function requiredText(maxLength = 255) {
  return z
    .string({ error: requiredOr(fieldMessages.notAString) })
    .trim()
    .min(1, { error: fieldMessages.blank })
    .max(maxLength, { error: fieldMessages.maxLength(maxLength) });
}

/** An optional string that may be blank; `null` is treated as blank. */
export function optionalText(maxLength = 150) {
  return z
    .string({ error: fieldMessages.notAString })
    .trim()
    .max(maxLength, { error: fieldMessages.maxLength(maxLength) })
    .nullish()
    .transform((value) => value ?? '');
}

/** Email: trimmed and lower-cased before anything else looks at it (spec §5). */
export const ZEmail = z
  .string({ error: requiredOr(fieldMessages.notAString) })
  .trim()
  .toLowerCase()
  .min(1, { error: fieldMessages.blank })
  .max(254, { error: fieldMessages.maxLength(254) })
  .pipe(z.email({ error: fieldMessages.invalidEmail }));

/** A password as typed: never trimmed, checked for strength by the server's password rules. */
export const ZPasswordInput = z
  .string({ error: requiredOr(fieldMessages.notAString) })
  .min(1, { error: fieldMessages.blank })
  .max(128, { error: fieldMessages.maxLength(128) });
