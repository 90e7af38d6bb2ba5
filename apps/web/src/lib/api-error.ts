import type { ErrorCode } from '@mirra/contracts';

/**
 * What a form does with a failed call: one message to show as an alert, or messages
 * per field. `invalid` marks a body that could not be read at all ('Invalid error: …').
 */
export type ParsedApiError =
  | { kind: 'alert'; message: string; code: ErrorCode | null; invalid?: boolean }
  | { kind: 'fields'; fields: Record<string, string[]>; code: ErrorCode | null };

export class ApiError extends Error {
  override name = 'ApiError';
  readonly parsed: ParsedApiError;
  constructor(
    readonly status: number,
    readonly body: unknown,
    rawText = '',
  ) {
    const parsed = parseApiError(body, rawText);
    super(parsed.kind === 'alert' ? parsed.message : `HTTP ${status}`);
    this.parsed = parsed;
  }

  get code(): ErrorCode | null {
    return this.parsed.code;
  }
}

export const INVALID_ERROR_PREFIX = 'Invalid error: ';

function firstText(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (typeof first === 'string' && first) return first;
    if (first && typeof first === 'object') {
      // A list of objects: their own message if they carry one, never a url.
      const record = first as Record<string, unknown>;
      for (const key of ['message', 'detail', 'text']) {
        if (typeof record[key] === 'string' && record[key]) return record[key];
      }
    }
  }
  return null;
}

/**
 * Reads a DRF-shaped error body: `detail`, the first `non_field_errors` item or the first element
 * of a bare list is an alert; other keys with string or list values are field errors.
 */
export function parseApiError(body: unknown, rawText = ''): ParsedApiError {
  const invalid = (): ParsedApiError => {
    const detail =
      body && typeof body === 'object' && 'detail' in body
        ? JSON.stringify((body as { detail: unknown }).detail)
        : rawText;
    return {
      kind: 'alert',
      message: `${INVALID_ERROR_PREFIX}${detail ?? ''}`.trim(),
      code: null,
      invalid: true,
    };
  };
  if (Array.isArray(body)) {
    const first = firstText(body);
    return first ? { kind: 'alert', message: first, code: null } : invalid();
  }
  if (!body || typeof body !== 'object') return invalid();
  const record = body as Record<string, unknown>;
  const code = typeof record.code === 'string' ? (record.code as ErrorCode) : null;
  if (typeof record.detail === 'string' && record.detail)
    return { kind: 'alert', message: record.detail, code };
  const nonField = firstText(record.non_field_errors);
  if (nonField) return { kind: 'alert', message: nonField, code };
  const fields: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'code' || key === 'detail' || key === 'non_field_errors') continue;
    if (typeof value === 'string' && value) fields[key] = [value];
    else if (Array.isArray(value)) {
      const texts = value.filter((item): item is string => typeof item === 'string' && item !== '');
      if (texts.length) fields[key] = texts;
    }
  }
  if (Object.keys(fields).length) return { kind: 'fields', fields, code };
  return invalid();
}
