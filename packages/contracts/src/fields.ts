import { z } from 'zod';

/** DRF's standard field messages, word for word: clients match and show them as DRF words them. */
export const fieldMessages = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  invalidEmail: 'Enter a valid email address.',
  notAString: 'Not a valid string.',
  maxLength: (max: number) => `Ensure this field has no more than ${max} characters.`,
  controlCharacters: 'Remove control characters from this text.',
} as const;

/**
 * Control characters (C0 and DEL) have no place in text people type, and PostgreSQL refuses NUL in
 * a text column outright. Multi-line text (a prompt, a comment) keeps tab, line feed and carriage
 * return; one-line text (names, titles) keeps none.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SINGLE_LINE_CONTROL = /[\u0000-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const MULTI_LINE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export type TextLines = 'single' | 'multi';

/** Whether `value` holds no control character that text of this kind may not contain. */
export function isFreeOfControlCharacters(value: string, lines: TextLines = 'single'): boolean {
  return !(lines === 'multi' ? MULTI_LINE_CONTROL : SINGLE_LINE_CONTROL).test(value);
}

/**
 * `value` without the control characters text of this kind may not contain: for names that come
 * from elsewhere (Telegram, Google), which are kept rather than refused.
 */
export function withoutControlCharacters(value: string, lines: TextLines = 'single'): string {
  const pattern = lines === 'multi' ? MULTI_LINE_CONTROL : SINGLE_LINE_CONTROL;
  return value.replace(new RegExp(pattern.source, 'g'), '');
}

/** A string refused when it holds a control character (see `isFreeOfControlCharacters`). */
export function plainString(lines: TextLines = 'single') {
  return z
    .string({ error: fieldMessages.notAString })
    .refine((value) => isFreeOfControlCharacters(value, lines), { error: fieldMessages.controlCharacters });
}

const requiredOr = (fallback: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? fieldMessages.required : fallback;

/** A required, trimmed, non-blank, one-line string with DRF messages. */
export function requiredText(maxLength = 255) {
  return z
    .string({ error: requiredOr(fieldMessages.notAString) })
    .refine((value) => isFreeOfControlCharacters(value), { error: fieldMessages.controlCharacters })
    .trim()
    .min(1, { error: fieldMessages.blank })
    .max(maxLength, { error: fieldMessages.maxLength(maxLength) });
}

/** An optional string that may be blank; `null` is treated as blank. One line unless `lines` says so. */
export function optionalText(maxLength = 150, lines: TextLines = 'single') {
  return z
    .string({ error: fieldMessages.notAString })
    .refine((value) => isFreeOfControlCharacters(value, lines), { error: fieldMessages.controlCharacters })
    .trim()
    .max(maxLength, { error: fieldMessages.maxLength(maxLength) })
    .nullish()
    .transform((value) => value ?? '');
}

/** Email: trimmed and lower-cased before anything else looks at it. */
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
