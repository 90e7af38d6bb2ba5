import { errorCodes, type ErrorCode } from '@mirra/contracts';

export type FieldErrors = Record<string, string[]>;

/**
 * The one error type of the server. `code` is stable and translated by the web app; `detail` and
 * `fields` form the DRF-shaped body; `extra` adds safe, structured values (e.g. a shortfall).
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly detail?: string;
  readonly fields?: FieldErrors;
  readonly extra?: Record<string, string | number | null>;
  readonly headers?: Record<string, string>;

  constructor(options: {
    code: ErrorCode;
    detail?: string;
    fields?: FieldErrors;
    statusCode?: number;
    extra?: Record<string, string | number | null>;
    headers?: Record<string, string>;
    cause?: unknown;
  }) {
    super(options.detail ?? options.code, { cause: options.cause });
    this.code = options.code;
    this.statusCode = options.statusCode ?? errorCodes[options.code];
    this.detail = options.detail;
    this.fields = options.fields;
    this.extra = options.extra;
    this.headers = options.headers;
  }

  toBody(): Record<string, unknown> {
    return {
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
      ...this.fields,
      ...this.extra,
      code: this.code,
    };
  }
}

/** Field errors (`{"email": ["…"]}`), the shape forms show under each input. */
export function fieldError(code: ErrorCode, fields: FieldErrors): AppError {
  return new AppError({ code, fields });
}

export const notFound = (detail = 'Not found.') => new AppError({ code: 'common.not_found', detail });

/** The account is banned: said the same way by every sign-in method and by a live session. */
export const accountBanned = () =>
  new AppError({ code: 'auth.account_banned', detail: 'This account has been banned.' });

export const notAuthenticated = () =>
  new AppError({
    code: 'auth.not_authenticated',
    detail: 'Authentication credentials were not provided.',
    headers: { 'www-authenticate': 'Bearer realm="api"' },
  });

export function throttled(retryAfterSeconds: number): AppError {
  return new AppError({
    code: 'common.throttled',
    detail: `Request was throttled. Expected available in ${retryAfterSeconds} seconds.`,
    extra: { retry_after: retryAfterSeconds },
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}
