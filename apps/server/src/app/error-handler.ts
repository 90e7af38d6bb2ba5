import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { NON_FIELD_ERRORS } from '@mirra/contracts';
import { AppError, type FieldErrors } from '../shared/errors.js';
import { findOutage, OUTAGE_RETRY_AFTER_SECONDS } from '../shared/outages.js';

/**
 * Turns every failure into the DRF-shaped body clients read (`detail`, per-field
 * lists, `non_field_errors`) plus a stable `code`. Bad input is always a 4xx; a 5xx never says
 * what broke (it is logged instead).
 */
export function registerErrorHandling(
  app: FastifyInstance,
  reportServerError?: (error: unknown, request: FastifyRequest) => void,
): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const appError = toAppError(error);
    if (appError.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      reportServerError?.(error, request);
    } else if (!(error instanceof AppError)) {
      request.log.info(
        { err: { message: error.message, code: (error as FastifyError).code } },
        'bad request',
      );
    }
    if (appError.headers) void reply.headers(appError.headers);
    void reply.status(appError.statusCode).send(appError.toBody());
  });
}

/** The AppError a failure is answered as (exported for tests of the mapping). */
export function toAppError(error: FastifyError | AppError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: FieldErrors = {};
    for (const issue of error.validation) {
      // Body fields by name; a bad query parameter by its name too; whole-object problems aside.
      const [field] = issue.instancePath.split('/').filter(Boolean);
      const key = field ?? NON_FIELD_ERRORS;
      (fields[key] ??= []).push(issue.message ?? 'Invalid value.');
    }
    return new AppError({ code: 'common.validation', fields });
  }
  if (isUntranslatableText(error)) {
    return new AppError({
      code: 'common.invalid_text',
      detail: 'The text contains characters that cannot be saved.',
    });
  }
  const outage = findOutage(error);
  if (outage) {
    return new AppError({
      code: 'common.unavailable',
      detail: 'Service temporarily unavailable, try again later.',
      extra: { retry_after: OUTAGE_RETRY_AFTER_SECONDS },
      headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_SECONDS) },
      cause: error,
    });
  }
  if (isResponseSerializationError(error)) {
    return new AppError({ code: 'common.internal', detail: 'A server error occurred.', cause: error });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError({ code: 'common.malformed_json', detail: `JSON parse error - ${error.message}` });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError({ code: 'common.payload_too_large', detail: 'Request body is too large.' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError({
        code: 'common.unsupported_media_type',
        detail: 'Unsupported media type in request.',
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError({ code: 'common.validation', detail: 'Invalid Content-Length.', statusCode: 400 });
  }
  if (error.statusCode === 405) {
    return new AppError({ code: 'common.method_not_allowed', detail: 'Method not allowed.' });
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    // Anything else the framework rejected as the client's fault (bad headers, bad encoding…).
    return new AppError({ code: 'common.validation', detail: error.message, statusCode: error.statusCode });
  }
  return new AppError({ code: 'common.internal', detail: 'A server error occurred.', cause: error });
}

/**
 * PostgreSQL's refusals of text it cannot store: NUL or an invalid UTF-8 byte sequence (22021) and
 * a character with no equivalent in the database's encoding (22P05). The contracts refuse control
 * characters before a query is made; this keeps any text that slips past them a 400, not a 500.
 */
const UNTRANSLATABLE_TEXT_CODES = new Set(['22021', '22P05']);

function isUntranslatableText(error: unknown): boolean {
  // drizzle wraps the driver's error as `cause`; a use case may wrap it once more.
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNTRANSLATABLE_TEXT_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
