import type { TFunction } from 'i18next';
import { PAYOUT_AMOUNT_INVALID } from '@mirra/contracts';
import { ApiError, type ParsedApiError } from './api-error';

/** A pattern matching `text` alone, for messages the contracts declare. */
function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/**
 * Server field messages are DRF's English texts; the known ones are shown in the user's language,
 * anything else as the server wrote it.
 */
const FIELD_MESSAGE_RULES: Array<[RegExp, string, (m: RegExpMatchArray) => Record<string, unknown>]> = [
  [/^This field is required\.$/, 'fieldErrors.required', () => ({})],
  [/^This field may not be blank\.$/, 'fieldErrors.blank', () => ({})],
  [/^Enter a valid email address\.$/, 'fieldErrors.invalidEmail', () => ({})],
  [/^Not a valid string\.$/, 'fieldErrors.invalid', () => ({})],
  [/^Remove control characters from this text\.$/, 'fieldErrors.controlCharacters', () => ({})],
  [
    /^Ensure this field has no more than (\d+) characters\.$/,
    'fieldErrors.maxLength',
    (m) => ({ max: Number(m[1]) }),
  ],
  [
    /^This password is too short\. It must contain at least (\d+) characters\.$/,
    'fieldErrors.passwordTooShort',
    (m) => ({ count: Number(m[1]) }),
  ],
  [/^This password is too common\.$/, 'fieldErrors.passwordTooCommon', () => ({})],
  [/^This password is entirely numeric\.$/, 'fieldErrors.passwordNumeric', () => ({})],
  [/^The password is too similar to the email address\.$/, 'fieldErrors.passwordSimilarEmail', () => ({})],
  [/^The password is too similar to the first name\.$/, 'fieldErrors.passwordSimilarFirstName', () => ({})],
  [/^The password is too similar to the last name\.$/, 'fieldErrors.passwordSimilarLastName', () => ({})],
  [/^Use 3 to 32 letters, digits, dots or underscores\.$/, 'fieldErrors.usernameFormat', () => ({})],
  [/^Enter a valid phone number\.$/, 'fieldErrors.phoneFormat', () => ({})],
  [/^Enter a valid Instagram username\.$/, 'fieldErrors.instagramFormat', () => ({})],
  [/^user with this email address already exists\.$/i, 'errors.users.email_taken', () => ({})],
  [/^A user with that username already exists\.$/, 'errors.users.username_taken', () => ({})],
  [/^Invalid password\.$/, 'errors.users.current_password_invalid', () => ({})],
  [/^Invalid token for given user\.$/, 'fieldErrors.linkInvalid', () => ({})],
  [/^Invalid user id or user doesn't exist\.$/, 'fieldErrors.linkInvalid', () => ({})],
  // Generations and uploads.
  [/^Only in English$/, 'messages.onlyEnglish', () => ({})],
  [/^Maximum number of characters - (\d+)$/, 'messages.maxChars', (m) => ({ max: Number(m[1]) })],
  [/^The file size must not exceed (.+)$/, 'messages.fileSizeLimit', (m) => ({ size: m[1] })],
  [/^The image must not exceed ([\d.]+) megapixels$/, 'fieldErrors.megapixels', (m) => ({ mp: m[1] })],
  [/^Moderation failed: this prompt is not allowed\.$/, 'errors.generations.prompt_moderated', () => ({})],
  [/^This photo was not found\. Upload it again\.$/, 'fieldErrors.photoNotFound', () => ({})],
  [/^Upload (up to )?\d+ photo for this mode\.$/, 'errors.generations.image_required', () => ({})],
  [/^Choose a style\.$/, 'fieldErrors.chooseStyle', () => ({})],
  // The tools' settings, a run's count and a picture's size.
  [/^Choose ×2 or ×4\.$/, 'fieldErrors.chooseScale', () => ({})],
  [/^Choose what goes behind the person\.$/, 'fieldErrors.chooseBackground', () => ({})],
  [/^Choose a colour( like #[0-9a-f]{6})?\.$/, 'fieldErrors.chooseColour', () => ({})],
  [/^Paint over the part of the picture to change\.$/, 'fieldErrors.paintMask', () => ({})],
  [/^Choose where to add canvas(, or a frame shape)?\.$/, 'fieldErrors.chooseExtend', () => ({})],
  [/^Upload a photo of the garment\.$/, 'fieldErrors.garmentPhoto', () => ({})],
  [/^Choose 1 to (\d+) pictures\.$/, 'fieldErrors.chooseCount', (m) => ({ max: Number(m[1]) })],
  [/^Choose (\d+:\d+, )+\d+:\d+\.$/, 'fieldErrors.chooseAspect', () => ({})],
  [/^Choose a camera move\.$/, 'fieldErrors.chooseCamera', () => ({})],
  [/^This server has no engine for \w+ yet\.$/, 'errors.generations.mode_unavailable', () => ({})],
  [/^Upload a valid image\./, 'errors.uploads.unsupported_type', () => ({})],
  [/^Upload one file at a time\.$/, 'fieldErrors.oneFile', () => ({})],
  [/^Moderation failed: this title is not allowed\.$/, 'errors.posts.title_moderated', () => ({})],
  // The takedown form.
  [/^Paste the link to the post\.$/, 'fieldErrors.takedownPostLink', () => ({})],
  [/^Choose what the picture shows\.$/, 'fieldErrors.takedownCategory', () => ({})],
  [/^There is no post at this link\.$/, 'fieldErrors.takedownNoPost', () => ({})],
  // Digital models, and face swap's need of one.
  [
    /^Choose your digital model\. Create one first if you have none\.$/,
    'errors.generations.model_required',
    () => ({}),
  ],
  [/^This model was not found or is not trained yet\.$/, 'errors.generations.model_unavailable', () => ({})],
  [
    /^This model has no photos left\. Add photos of yourself to it\.$/,
    'fieldErrors.modelNoPhotos',
    () => ({}),
  ],
  [
    /^Upload the photo to put your face on, or describe a scene in the prompt\.$/,
    'modes.face_swap.photoOrPrompt',
    () => ({}),
  ],
  [
    /^Upload at least \d+ good photos of yourself to train the model; \d+ so far\.$/,
    'errors.models.not_enough_photos',
    () => ({}),
  ],
  // Posts (texts of the social catalogue, loaded with the pages that send these).
  [/^Choose a reason\.$/, 'social.report.chooseReason', () => ({})],
  // Pay-outs and transfers (texts of the partners catalogue, loaded with the wallet pages).
  [/^Enter a valid card number\.$/, 'partners.payout.errors.card', () => ({})],
  [/^Enter the holder's full name\.$/, 'partners.payout.errors.holder', () => ({})],
  [/^Enter a Russian mobile number, e\.g\. /, 'partners.payout.errors.phone', () => ({})],
  [/^Enter the bank that receives the transfer\.$/, 'partners.payout.errors.bank', () => ({})],
  [/^Choose a network\.$/, 'partners.payout.errors.network', () => ({})],
  [/^This is not a (\w+) address\.$/, 'partners.payout.errors.address', (m) => ({ network: m[1] })],
  [/^The minimum pay-out is ([\d.]+)\.$/, 'partners.payout.errors.minimum', (m) => ({ amount: m[1] })],
  [exactly(PAYOUT_AMOUNT_INVALID), 'partners.payout.errors.amount', () => ({})],
  [/^Choose another Mirra user\.$/, 'partners.payout.errors.recipient', () => ({})],
];

export function translateFieldMessage(t: TFunction, message: string): string {
  for (const [pattern, key, params] of FIELD_MESSAGE_RULES) {
    const match = message.match(pattern);
    if (match) return t(key, params(match));
  }
  return message;
}

export interface ShownError {
  /** One message for the form's alert, if any. */
  alert: string | null;
  /** Messages under the inputs the form has. */
  fields: Record<string, string[]>;
}

/**
 * What a form shows for a failed call: alerts translated by error code, field messages under the
 * form's own inputs, and field errors about inputs the form does not have moved to the alert.
 */
export function describeError(t: TFunction, error: unknown, formFields: readonly string[] = []): ShownError {
  if (!(error instanceof ApiError)) {
    return { alert: t('errors.network'), fields: {} };
  }
  return describeParsedError(t, error.parsed, formFields);
}

export function describeParsedError(
  t: TFunction,
  parsed: ParsedApiError,
  formFields: readonly string[],
): ShownError {
  if (parsed.kind === 'alert') {
    if (parsed.invalid) return { alert: parsed.message, fields: {} };
    const byCode = parsed.code ? t(`errors.${parsed.code}`, { defaultValue: '' }) : '';
    return { alert: byCode || parsed.message, fields: {} };
  }
  const fields: Record<string, string[]> = {};
  const stray: string[] = [];
  for (const [field, messages] of Object.entries(parsed.fields)) {
    const shown = messages.map((message) => translateFieldMessage(t, message));
    if (formFields.includes(field)) fields[field] = shown;
    else stray.push(shown[0]!);
  }
  return { alert: stray[0] ?? null, fields };
}
