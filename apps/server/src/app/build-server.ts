import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { registerAppConfigRoutes } from '../modules/app-config/app-config.routes.js';
import { registerAuthRoutes } from '../modules/auth/auth.routes.js';
import { registerDevRoutes } from '../modules/dev/dev.routes.js';
import { registerGeoRoutes } from '../modules/geo/geo.routes.js';
import { registerGoogleRoutes } from '../modules/google/google.routes.js';
import { registerCreditsRoutes } from '../modules/credits/credits.routes.js';
import { registerGenerationsRoutes } from '../modules/generations/generations.routes.js';
import { registerMediaRoutes } from '../modules/media/media.routes.js';
import { registerModelsRoutes } from '../modules/models/models.routes.js';
import { registerNotificationsRoutes } from '../modules/notifications/notifications.routes.js';
import { registerPostsRoutes } from '../modules/posts/posts.routes.js';
import { registerSocialRoutes } from '../modules/social/social.routes.js';
import { registerPromptHelperRoutes } from '../modules/prompt-helper/prompt-helper.routes.js';
import { registerQsRoutes } from '../modules/qs/qs.routes.js';
import { registerTelegramRoutes } from '../modules/telegram/telegram.routes.js';
import { registerUploadsRoutes } from '../modules/uploads/uploads.routes.js';
import { registerUsersRoutes } from '../modules/users/users.routes.js';
import { notFound } from '../shared/errors.js';
import { registerUnreadBodyDrain } from '../shared/http/unread-body.js';
import { registerAuthentication } from './authenticate.js';
import type { AppDeps } from './deps.js';
import { registerErrorHandling } from './error-handler.js';

export type App = FastifyInstance;
/** The app as route modules see it: request and response types inferred from the zod schemas. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Builds the HTTP server: plugins, then authentication, then every feature's routes, then the SPA. */
export async function buildServer(deps: AppDeps): Promise<App> {
  const app: App = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.config.bodyLimitBytes,
    // A hop count is valid at run time (proxy-addr) though fastify's types omit it.
    trustProxy: deps.config.trustProxy as boolean | string[],
  });
  // The spec's client sends `Content-Type: application/json` on every call, bodiless POSTs too
  // (e.g. create_auth_key), so an empty JSON body means "no body", not a parse error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return parseJson(request, body as string, done);
  });
  // A POST without any body is validated as an empty object, so the client gets DRF's per-field
  // "This field is required." instead of one error about the body's type.
  app.addHook('preValidation', async (request) => {
    if (request.body == null && ['POST', 'PUT', 'PATCH'].includes(request.method)) request.body = {};
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(cookie);
  await app.register(helmet, {
    // The SPA and the Swagger UI load their own scripts; the Mini App is framed by Telegram.
    contentSecurityPolicy: false,
    frameguard: false,
    crossOriginEmbedderPolicy: false,
  });
  // Uploads stream in under their own limit (UPLOAD_MAX_MB), not the JSON body limit; one file
  // and a few small fields at most.
  await app.register(multipart, {
    limits: { fileSize: deps.config.uploads.maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 11 },
  });
  // Room for one more file than a route reads; beyond it the connection is closed instead.
  registerUnreadBodyDrain(app, 2 * deps.config.uploads.maxBytes);
  registerErrorHandling(app);
  registerAuthentication(app, deps);

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Mirra API',
        version: '1.0.0',
        description: 'The API of the Mirra web app and Telegram Mini App.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          telegram: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: '`TG <initData>`: the raw init data of the Telegram Mini App.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const api = app.withTypeProvider<ZodTypeProvider>();
  registerAppConfigRoutes(api, deps);
  registerUsersRoutes(api, deps);
  registerAuthRoutes(api, deps);
  registerGoogleRoutes(api, deps);
  registerTelegramRoutes(api, deps);
  registerGeoRoutes(api, deps);
  registerQsRoutes(api, deps);
  if (deps.config.devTelegramMock) registerDevRoutes(api, deps);
  registerMediaRoutes(api, deps);
  registerCreditsRoutes(api, deps);
  registerGenerationsRoutes(api, deps);
  registerUploadsRoutes(api, deps);
  registerPromptHelperRoutes(api, deps);
  registerNotificationsRoutes(api, deps);
  registerModelsRoutes(api, deps);
  registerPostsRoutes(api, deps);
  registerSocialRoutes(api, deps);

  await registerWebApp(app, deps);
  return app;
}

/**
 * Serves the built web app at `/`. Unknown paths outside /api/ get index.html, so the SPA's own
 * router decides what `/profile/…` shows; unknown /api/ paths stay JSON 404s.
 */
async function registerWebApp(app: App, deps: AppDeps): Promise<void> {
  const root = deps.config.webDistDir ?? findWebDist();
  const hasWebApp = Boolean(root && existsSync(path.join(root, 'index.html')));
  if (!hasWebApp || !root) {
    deps.logger.warn('the web app is not built (npm run build); / will answer 404');
    app.setNotFoundHandler((_request, reply) => reply.status(404).send(notFound().toBody()));
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: ['index.html'],
    cacheControl: false,
    setHeaders(res, filePath) {
      // Hashed assets never change; index.html must always be fresh to pick up new builds.
      res.setHeader(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url === '/api';
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(notFound().toBody());
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

function findWebDist(): string | undefined {
  const candidates = [
    path.resolve(process.cwd(), 'apps/web/dist'),
    path.resolve(process.cwd(), '../web/dist'),
    path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web/dist'),
    path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../web/dist'),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html')));
}
