import { streamStatusEvents } from '../../shared/http/status-event-stream.js';
import {
  ZCreateGenerationBody,
  ZCursorQuery,
  ZGeneration,
  ZGenerationList,
  ZPrice,
  ZPriceQuery,
} from '@mirra/contracts';
import type { FastifyRequest } from 'fastify';
import { requireAuth } from '../../shared/http/auth-context.js';
import { ZUuidParams } from '../../shared/http/params.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { GenerationsDeps } from './generations.deps.js';
import { parseTimezoneOffset } from './generations.models.js';
import {
  createGeneration,
  getGeneration,
  listGenerations,
  quoteGeneration,
  repeatGeneration,
  type RequestContext,
} from './generations.usecases.js';

const tags = ['generations'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];

const IDEMPOTENCY_NOTE =
  'Send an `Idempotency-Key` header (8–128 letters, digits, "-" or "_"; a UUID fits) to make a resend ' +
  'safe: the same key again returns the generation the first request made, charged once. The same key ' +
  'with other inputs answers 422 `generations.idempotency_key_reused`; a malformed key 400 ' +
  '`generations.idempotency_key_invalid`.';

const contextOf = (request: FastifyRequest): RequestContext => {
  const key = request.headers['idempotency-key'];
  return {
    timezoneOffsetMinutes: parseTimezoneOffset(request.cookies.timezone),
    // Repeated headers arrive joined by ", ", which no valid key contains.
    idempotencyKey: key === undefined ? null : String(key),
  };
};

export function registerGenerationsRoutes(app: ZodApp, deps: GenerationsDeps): void {
  app.get(
    '/api/generations/price/',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'What a generation costs, my balance, and any free-tier wait',
        querystring: ZPriceQuery,
        response: { 200: ZPrice },
      },
    },
    async (request) => quoteGeneration(deps, request.auth?.user ?? null, request.query, contextOf(request)),
  );

  app.post(
    '/api/generations/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Start a generation (charged now, refunded if it fails)',
        description: IDEMPOTENCY_NOTE,
        body: ZCreateGenerationBody,
        response: { 201: ZGeneration },
        security,
      },
    },
    async (request, reply) => {
      const generation = await createGeneration(
        deps,
        requireAuth(request).user,
        request.body,
        contextOf(request),
      );
      return reply.status(201).send(generation);
    },
  );

  app.get(
    '/api/generations/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'My generations, newest first',
        querystring: ZCursorQuery,
        response: { 200: ZGenerationList },
        security,
      },
    },
    async (request) =>
      listGenerations(deps, requireAuth(request).user, request.query.cursor, request.query.limit ?? 20),
  );

  app.get(
    '/api/generations/:uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'One of my generations, with its result when completed',
        params: ZUuidParams,
        response: { 200: ZGeneration },
        security,
      },
    },
    async (request) => getGeneration(deps, requireAuth(request).user, request.params.uuid),
  );

  app.post(
    '/api/generations/:uuid/repeat/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Run a generation again with the same settings and seed',
        description: IDEMPOTENCY_NOTE,
        params: ZUuidParams,
        response: { 201: ZGeneration },
        security,
      },
    },
    async (request, reply) => {
      const generation = await repeatGeneration(
        deps,
        requireAuth(request).user,
        request.params.uuid,
        contextOf(request),
      );
      return reply.status(201).send(generation);
    },
  );

  app.get(
    '/api/generations/:uuid/events/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Server-sent events: `status` events {uuid, status, progress} until the generation ends',
        params: ZUuidParams,
        security,
      },
    },
    async (request, reply) => {
      const user = requireAuth(request).user;
      const current = await getGeneration(deps, user, request.params.uuid);
      streamStatusEvents(request, reply, {
        current,
        watch: (onEvent, onReset) => deps.generationEvents.watch(current.uuid, onEvent, onReset),
        reread: () => getGeneration(deps, user, current.uuid),
      });
    },
  );
}
