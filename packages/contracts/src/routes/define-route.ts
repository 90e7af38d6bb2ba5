import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type * as Schemas from '../schemas.js';

/**
 * An HTTP endpoint declared once: the server registers it from this declaration (validation,
 * OpenAPI) and the web app calls it by it, so a path, method, parameter, body or answer that does
 * not match does not compile.
 *
 * Schemas are named, not imported: a declaration is plain data, so the browser bundles a route's
 * method and path while its types come from the zod schemas and no zod code comes along. The
 * server looks the names up among the contracts' exports.
 */

type Registry = typeof Schemas;
/** The name of an exported zod schema of the contracts. */
export type SchemaName = {
  [K in keyof Registry]: Registry[K] extends z.ZodType ? K : never;
}[keyof Registry];
type ZodOf<N> = N extends SchemaName ? (Registry[N] extends z.ZodType ? Registry[N] : never) : never;
/** What a client sends for a named schema. */
export type SchemaInput<N> = z.input<ZodOf<N>>;
/** What a named schema gives after parsing (what the server reads, what the client receives). */
export type SchemaOutput<N> = z.output<ZodOf<N>>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** Who may call: `required` (401 without valid credentials), `optional` (signed in or not), `none`. */
export type RouteAuth = 'required' | 'optional' | 'none';
/** How the request body travels: JSON (the default), a multipart upload, a urlencoded form, raw bytes. */
export type RequestKind = 'json' | 'multipart' | 'form' | 'raw';
/** What a successful answer is: JSON (the default), server-sent events, a file, a page, a redirect. */
export type ReplyKind = 'json' | 'event-stream' | 'binary' | 'html' | 'redirect';
export type SecurityScheme = 'bearer' | 'telegram';

/** The names of a path's `:params`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export interface RouteSpec {
  readonly method: HttpMethod;
  readonly path: `/api/${string}`;
  readonly auth: RouteAuth;
  readonly summary: string;
  readonly description?: string;
  /** OpenAPI tags. */
  readonly tags: readonly string[];
  /** Schemes OpenAPI lists; signed-in routes default to both. */
  readonly security?: readonly SecurityScheme[];
  /**
   * The staff level a staff route needs (`moderator` < `admin`). Anyone below it, signed in or
   * not, is answered 404 as if the route did not exist; every `/api/admin/` route sets it.
   */
  readonly staff?: 'moderator' | 'admin';
  /** Left out of the OpenAPI document (webhooks, development and test pages). */
  readonly hidden?: boolean;
  readonly params?: SchemaName;
  readonly query?: SchemaName;
  readonly body?: SchemaName;
  readonly requestKind?: RequestKind;
  readonly replyKind?: ReplyKind;
  /** The success answer by status code; a JSON route has exactly one. */
  readonly response?: { readonly [status: number]: SchemaName };
  /** The error codes this route may answer beyond validation and authentication. */
  readonly errors?: readonly ErrorCode[];
}

/** A params schema whose keys are exactly the path's `:params`. */
type ParamsSchemaFor<Names extends string> = {
  [K in SchemaName]: [keyof SchemaOutput<K>] extends [Names]
    ? [Names] extends [keyof SchemaOutput<K>]
      ? K
      : never
    : never;
}[SchemaName];

type ParamsRule<S extends RouteSpec> = [PathParamNames<S['path']>] extends [never]
  ? { readonly params?: undefined }
  : { readonly params: ParamsSchemaFor<PathParamNames<S['path']>> };

/** Declares a route; the declaration is its own value, with every literal kept for the types. */
export function defineRoute<const S extends RouteSpec>(spec: S & ParamsRule<S>): S {
  return spec;
}

/** Any declared route. */
export type AnyRoute = RouteSpec;

/** A query value as a client may give it: numbers for free-text strings, null for "leave out". */
type QueryValue<V> = V | (string extends V ? number : never) | (undefined extends V ? null : never);
type QueryOf<T> = { [K in keyof T]: QueryValue<T[K]> };

/** The path parameters a client fills in. */
export type RouteParams<R extends RouteSpec> = { readonly [K in PathParamNames<R['path']>]: string };
/** The query a client sends (null or undefined values are left out). */
export type RouteQuery<R extends RouteSpec> = R extends { readonly query: infer Q extends SchemaName }
  ? QueryOf<SchemaInput<Q>>
  : never;
/** The body a client sends. */
export type RouteBody<R extends RouteSpec> = R extends { readonly requestKind: 'multipart' }
  ? FormData
  : R extends { readonly body: infer B extends SchemaName }
    ? SchemaInput<B>
    : never;
/** The success answer of a JSON route (the parsed body; null for a 204). */
export type RouteReply<R extends RouteSpec> = R extends {
  readonly response: infer Map extends Readonly<Record<number, SchemaName>>;
}
  ? { [S in keyof Map]: SchemaOutput<Map[S]> }[keyof Map]
  : never;
/** Whether a route answers JSON (else events, a file, a page or a redirect). */
export type IsJsonRoute<R extends RouteSpec> = R extends {
  readonly replyKind: 'event-stream' | 'binary' | 'html' | 'redirect';
}
  ? false
  : true;

/** The server's view: what a handler reads after validation. */
export type RouteRequestParams<R extends RouteSpec> = R extends {
  readonly params: infer P extends SchemaName;
}
  ? SchemaOutput<P>
  : Record<string, string>;
export type RouteRequestQuery<R extends RouteSpec> = R extends { readonly query: infer Q extends SchemaName }
  ? SchemaOutput<Q>
  : unknown;
export type RouteRequestBody<R extends RouteSpec> = R extends { readonly body: infer B extends SchemaName }
  ? SchemaOutput<B>
  : unknown;

/** The status a JSON route answers with on success. */
export function successStatus(route: RouteSpec): number {
  const statuses = Object.keys(route.response ?? {}).map(Number);
  return statuses.find((status) => status < 300) ?? 200;
}

/** The route's path with its `:params` filled in (each value percent-encoded). */
export function routePath(route: RouteSpec, params: Readonly<Record<string, string>> = {}): string {
  return route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined)
      throw new Error(`${route.method} ${route.path}: the path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
}
