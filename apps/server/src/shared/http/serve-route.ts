import * as contracts from '@mirra/contracts';
import {
  successStatus,
  type IsJsonRoute,
  type RouteReply,
  type RouteRequestBody,
  type RouteRequestParams,
  type RouteRequestQuery,
  type RouteSpec,
  type SchemaName,
} from '@mirra/contracts';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteGenericInterface,
} from 'fastify';
import type { ZodType } from 'zod';
import type { AuthMode } from './auth-context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contracts' declaration this route was registered from. */
    declaration?: RouteSpec;
  }
}

/** The request a handler of `R` reads: params, query and body as its schemas parse them. */
export type DeclaredRequest<R extends RouteSpec> = FastifyRequest<
  RouteGenericInterface & {
    Params: RouteRequestParams<R>;
    Querystring: RouteRequestQuery<R>;
    Body: RouteRequestBody<R>;
  }
>;

/**
 * A JSON route's handler returns its answer, sent with the declared success status; a route with
 * another kind of answer (events, files, pages, redirects) answers through `reply` itself.
 */
export type DeclaredHandler<R extends RouteSpec> =
  IsJsonRoute<R> extends true
    ? (request: DeclaredRequest<R>, reply: FastifyReply) => Promise<RouteReply<R>>
    : (request: DeclaredRequest<R>, reply: FastifyReply) => Promise<FastifyReply | void>;

/** What a route may add beside its declaration. */
export interface ServeOptions {
  /** Runs before the body is read (e.g. a webhook's shared secret). */
  onRequest?: onRequestHookHandler;
}

/** The zod schema a declaration names. */
export function schemaNamed(name: SchemaName): ZodType {
  const schema = (contracts as Record<string, unknown>)[name];
  if (!schema || typeof schema !== 'object' || !('safeParse' in schema)) {
    throw new Error(`@mirra/contracts exports no zod schema named ${name}`);
  }
  return schema as ZodType;
}

const CONSUMES = {
  multipart: ['multipart/form-data'],
  form: ['application/x-www-form-urlencoded'],
} as const;

/** Fastify's route schema (validation, serialisation, OpenAPI) from a declaration. */
export function routeSchemaOf(route: RouteSpec): Record<string, unknown> {
  const security =
    route.auth === 'none'
      ? undefined
      : (route.security ?? ['bearer', 'telegram']).map((name) => ({ [name]: [] }));
  const requestKind = route.requestKind ?? 'json';
  return {
    tags: [...route.tags],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.hidden ? { hide: true } : {}),
    ...(security ? { security } : {}),
    ...(requestKind === 'multipart' || requestKind === 'form'
      ? { consumes: [...CONSUMES[requestKind]] }
      : {}),
    ...(route.params ? { params: schemaNamed(route.params) } : {}),
    ...(route.query ? { querystring: schemaNamed(route.query) } : {}),
    ...(route.body && requestKind !== 'raw' && requestKind !== 'multipart'
      ? { body: schemaNamed(route.body) }
      : {}),
    ...(route.response
      ? {
          response: Object.fromEntries(
            Object.entries(route.response).map(([status, name]) => [status, schemaNamed(name)]),
          ),
        }
      : {}),
  };
}

/**
 * Registers a route from its declaration in `@mirra/contracts`: method, path, schemas, who may
 * call it and its OpenAPI entry all come from there; the handler's types follow from it.
 */
export function serve<const R extends RouteSpec>(
  app: FastifyInstance,
  route: R,
  handler: DeclaredHandler<R>,
  options: ServeOptions = {},
): void {
  const status = successStatus(route);
  const isJson = (route.replyKind ?? 'json') === 'json';
  app.route({
    method: route.method,
    url: route.path,
    config: { auth: route.auth satisfies AuthMode, declaration: route },
    schema: routeSchemaOf(route),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    handler: async (request, reply) => {
      const answer = await (handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>)(
        request,
        reply,
      );
      if (!isJson || reply.sent) return reply;
      return reply.status(status).send(answer);
    },
  });
}
