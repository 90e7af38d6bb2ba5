import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What a log line or a job added now should know about the work it belongs to: the id of the HTTP
 * request that started it, carried from the request into the jobs it adds and into their logs.
 */
export interface RequestContext {
  requestId: string;
  /** `job` inside a job handler: every log line there carries the request id. */
  kind: 'request' | 'job';
}

const storage = new AsyncLocalStorage<RequestContext>();

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Runs `work` with the context set for everything it starts (awaits, timers, queries). */
export function runWithRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/** Sets the context for the rest of the current asynchronous flow (a Fastify hook's request). */
export function enterRequestContext(context: RequestContext): void {
  storage.enterWith(context);
}

/** The payload field a job added during a request carries the request's id in. */
export const JOB_REQUEST_ID_FIELD = 'request_id';
