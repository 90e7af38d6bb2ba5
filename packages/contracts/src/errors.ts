import { z } from 'zod';

/**
 * Every error the API can answer with carries one of these stable codes beside the DRF-shaped
 * body, so the web app can translate it. Format: `feature.snake_reason`.
 */
export const errorCodes = {
  /** The request body or query failed validation; field errors are in the body. */
  'common.validation': 400,
  /** The body is not parseable JSON. */
  'common.malformed_json': 400,
  /** The content type is not one this route accepts. */
  'common.unsupported_media_type': 415,
  /** The body is larger than the server accepts. */
  'common.payload_too_large': 413,
  'common.not_found': 404,
  'common.method_not_allowed': 405,
  /** Too many attempts; `Retry-After` says when to try again. */
  'common.throttled': 429,
  /** Something broke on our side; the detail never says what. */
  'common.internal': 500,
  'auth.not_authenticated': 401,
  /** Email or password is wrong, or the account is not active yet. */
  'auth.invalid_credentials': 401,
  /** A JWT is malformed, has a bad signature, or is of the wrong type. */
  'auth.token_invalid': 401,
  'auth.token_expired': 401,
  /** The token was revoked by logout, a password change, or reuse of a rotated refresh token. */
  'auth.token_revoked': 401,
  'auth.init_data_invalid': 401,
  'auth.init_data_expired': 401,
  'auth.google_invalid': 401,
  /** The server has no Google client id configured. */
  'auth.google_unavailable': 503,
  /** The server has no Telegram bot configured. */
  'auth.telegram_unavailable': 503,
  'auth.permission_denied': 403,
  'users.email_taken': 400,
  'users.username_taken': 400,
  'users.activation_invalid': 400,
  /** The account is already active; the link was used before. */
  'users.activation_stale': 403,
  'users.reset_invalid': 400,
  'users.current_password_invalid': 400,
  /** The Google or Telegram identity already belongs to another Mirra account. */
  'users.identity_taken': 400,
  'users.not_found': 404,
  /** The Telegram sign-in key is unknown. */
  'telegram.auth_key_unknown': 404,
  /** The Telegram sign-in key expired or its token was already taken. */
  'telegram.auth_key_gone': 410,
  'telegram.webhook_forbidden': 403,
  'qs.not_found': 404,
} as const;

export type ErrorCode = keyof typeof errorCodes;
export const ZErrorCode = z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]);

/**
 * The wire shape of every error (DRF conventions the spec's client expects): a `detail` message
 * or per-field message lists, `non_field_errors` for errors about the whole object, plus `code`.
 */
export const ZApiError = z
  .object({
    code: ZErrorCode,
    detail: z.string().optional(),
    non_field_errors: z.array(z.string()).optional(),
  })
  .catchall(z.union([z.array(z.string()), z.string(), z.number(), z.null()]));
export type TApiError = z.infer<typeof ZApiError>;

export const NON_FIELD_ERRORS = 'non_field_errors';
