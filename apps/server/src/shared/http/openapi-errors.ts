import { errorCodes, type ErrorCode, type RouteSpec } from '@mirra/contracts';

/** What every route may answer besides its own errors: bad input, and a missing sign-in. */
function commonErrorsOf(route: RouteSpec): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (route.params || route.query || route.body || route.requestKind) codes.push('common.validation');
  if (route.auth === 'required') codes.push('auth.not_authenticated');
  return codes;
}

/** The success answer of a route that does not answer JSON, by its kind. */
const OTHER_REPLIES = {
  'event-stream': { status: '200', description: 'Server-sent events', type: 'text/event-stream' },
  binary: {
    status: '200',
    description: 'The file (or the byte range asked for)',
    type: 'application/octet-stream',
  },
  html: { status: '200', description: 'An HTML page', type: 'text/html' },
  redirect: { status: '303', description: 'Redirects to the page named by `Location`', type: null },
} as const;

/** The OpenAPI success answer of a route that does not answer JSON. */
export function otherReplyOf(route: RouteSpec): Record<string, Record<string, unknown>> {
  if (!route.replyKind || route.replyKind === 'json') return {};
  const reply = OTHER_REPLIES[route.replyKind];
  return {
    [reply.status]: {
      description: reply.description,
      ...(reply.type ? { content: { [reply.type]: { schema: { type: 'string' } } } } : {}),
    },
  };
}

/**
 * The OpenAPI responses of a declared route's errors, grouped by status: each lists the stable
 * codes the body's `code` may carry (the shape is `ApiError`: `code`, `detail`, field messages).
 */
export function errorResponsesOf(route: RouteSpec): Record<string, Record<string, unknown>> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...commonErrorsOf(route), ...(route.errors ?? [])])) {
    const status = errorCodes[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
        type: 'object',
        required: ['code'],
        properties: {
          code: { type: 'string', enum: codes },
          detail: { type: 'string' },
        },
        additionalProperties: true,
      },
    ]),
  );
}
