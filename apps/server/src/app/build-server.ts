import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { pickLanguage, SHARE_TOKEN_PATTERN } from '@mirra/contracts';
import { registerFalWebhookRoutes, registerReplicateWebhookRoutes } from '../engines/index.js';
import { mediaOriginOf } from '../shared/storage/create-storage.js';
import { findPrerenderedPages, pageFileFor, PRERENDERED_DIR } from './prerendered-pages.js';
import {
  createPageRenderer,
  createRenderedPageCache,
  fillPageTemplate,
  findServerRenderedPages,
  SERVER_RENDERED_PAGES,
} from './server-rendered-pages.js';
import { registerAppConfigRoutes } from '../modules/app-config/index.js';
import { registerAuthRoutes } from '../modules/auth/index.js';
import { registerDevRoutes } from '../modules/dev/index.js';
import { registerGeoRoutes } from '../modules/geo/index.js';
import { registerGoogleRoutes } from '../modules/google/index.js';
import { registerCreditsRoutes } from '../modules/credits/index.js';
import { createGenerationStore, registerGenerationsRoutes } from '../modules/generations/index.js';
import { registerMediaRoutes } from '../modules/media/index.js';
import { registerPaymentsRoutes } from '../modules/payments/index.js';
import { registerPartnersRoutes } from '../modules/partners/index.js';
import {
  registerAdminAccountRequestRoutes,
  registerAdminHealthRoute,
  registerAdminRoutes,
} from '../modules/admin/index.js';
import { registerSubscriptionsRoutes } from '../modules/subscriptions/index.js';
import { registerWalletRoutes } from '../modules/wallet/index.js';
import { createModelTrainingStore, registerModelsRoutes } from '../modules/models/index.js';
import { registerOpsRoutes, requestIdFor } from '../modules/ops/index.js';
import { registerNotificationsRoutes } from '../modules/notifications/index.js';
import {
  pageWithPreview,
  postLinkPreview,
  registerPostsRoutes,
  shareLinkPreview,
} from '../modules/posts/index.js';
import { registerSocialRoutes } from '../modules/social/index.js';
import { registerPromptHelperRoutes } from '../modules/prompt-helper/index.js';
import { registerQsRoutes } from '../modules/qs/index.js';
import { registerTelegramRoutes } from '../modules/telegram/index.js';
import { registerUploadsRoutes } from '../modules/uploads/index.js';
import { registerProvenanceRoutes } from '../modules/provenance/index.js';
import { registerTakedownsRoutes } from '../modules/takedowns/index.js';
import { registerPhotoPackRoutes } from '../modules/photo-packs/index.js';
import { registerUsersRoutes } from '../modules/users/index.js';
import { notFound } from '../shared/errors.js';
import { errorResponsesOf, otherReplyOf } from '../shared/http/openapi-errors.js';
import { trackRoutes } from '../shared/http/route-table.js';
import { registerUnreadBodyDrain } from '../shared/http/unread-body.js';
import { registerAuthentication } from './authenticate.js';
import type { AppDeps } from './deps.js';
import { registerErrorHandling } from './error-handler.js';
import {
  API_DOCS_CSP,
  contentSecurityPolicy,
  HSTS_HEADER,
  inlineScriptHashes,
  shouldSendHsts,
} from './security-headers.js';

export type App = FastifyInstance;
/** Builds the HTTP server: plugins, then authentication, then every feature's routes, then the SPA. */
export async function buildServer(deps: AppDeps): Promise<App> {
  const app: App = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.config.bodyLimitBytes,
    // A hop count is valid at run time (proxy-addr) though fastify's types omit it.
    trustProxy: deps.config.trustProxy as boolean | string[],
    // A caller's X-Request-Id is kept when it is short and safe (see requestIdFor), else a uuid.
    requestIdHeader: false,
    genReqId: (request) => requestIdFor(request.headers['x-request-id']),
  });
  // Before any route: the table is what tests hold against the contracts' route declarations.
  trackRoutes(app);
  // First, so every later hook, route and job added runs with the request's id.
  const ops = registerOpsRoutes(app, deps);
  // Clients send `Content-Type: application/json` on every call, bodiless POSTs too
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
  const webRoot = findWebRoot(deps);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityPolicy({
        inlineScriptHashes: webRoot
          ? inlineScriptHashes(readFileSync(path.join(webRoot, 'index.html'), 'utf8'))
          : [],
        isGoogleSignInEnabled: Boolean(deps.config.google.clientId),
        mediaOrigin: mediaOriginOf(deps.config.storage),
        errorReportingDsn: deps.config.errorReporting.webDsn,
      }),
    },
    // X-Frame-Options cannot name Telegram as an allowed parent; the CSP's frame-ancestors does,
    // and browsers that know it ignore X-Frame-Options anyway.
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    // Google's sign-in button answers through a popup, which a plain same-origin opener policy cuts
    // off; and it checks the page's origin from the Referer, which no-referrer would withhold
    // (strict-origin-when-cross-origin sends other sites the origin only, never the path).
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Sent by the hook below, only when it means something (HSTS=auto|on|off).
    hsts: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (shouldSendHsts(deps.config.hsts, request.protocol))
      reply.header('strict-transport-security', HSTS_HEADER);
  });
  // JSON and HTML answers above a small size travel compressed. Quality 4 keeps Brotli about as
  // cheap as gzip on the fly; the web app's files are compressed harder once, at build time.
  // Event streams are never compressed (the plugin's default types leave them out): a compressor
  // would hold events back until its buffer fills.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  // Uploads stream in under their own limit (UPLOAD_MAX_MB), not the JSON body limit; one file
  // and a few small fields at most.
  await app.register(multipart, {
    limits: { fileSize: deps.config.uploads.maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 11 },
  });
  // Room for one more file than a route reads; beyond it the connection is closed instead.
  registerUnreadBodyDrain(app, 2 * deps.config.uploads.maxBytes);
  registerErrorHandling(app, ops.reportServerError);
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
    // Each declared route's error codes join its documented answers (they are not serialised by it).
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const declaration = input.route.config?.declaration;
      if (!declaration) return transformed;
      const schema = transformed.schema as { response?: Record<string, unknown> };
      return {
        ...transformed,
        schema: {
          ...schema,
          response: { ...errorResponsesOf(declaration), ...otherReplyOf(declaration), ...schema.response },
        },
      };
    },
  });
  // The docs page sends a policy of its own (see API_DOCS_CSP).
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: API_DOCS_CSP });

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
  registerWalletRoutes(api, deps);
  registerSubscriptionsRoutes(api, deps);
  registerGenerationsRoutes(api, deps);
  registerUploadsRoutes(api, deps);
  registerProvenanceRoutes(api, deps);
  registerPhotoPackRoutes(api, deps);
  registerPromptHelperRoutes(api, deps);
  registerNotificationsRoutes(api, deps);
  registerModelsRoutes(api, deps);
  registerPostsRoutes(api, deps);
  registerTakedownsRoutes(api, deps);
  registerAdminRoutes(api, deps);
  registerAdminHealthRoute(api, { now: deps.now, readHealth: ops.readHealth });
  registerAdminAccountRequestRoutes(api, deps);
  registerSocialRoutes(api, deps);
  registerPaymentsRoutes(api, deps);
  registerPartnersRoutes(api, deps);
  const webhookDeps = {
    config: deps.config,
    now: deps.now,
    generations: createGenerationStore(deps),
    trainings: createModelTrainingStore(deps),
  };
  await registerFalWebhookRoutes(app, webhookDeps);
  await registerReplicateWebhookRoutes(app, webhookDeps);

  await registerWebApp(app, deps, webRoot);
  return app;
}

/**
 * Serves the built web app at `/`. Unknown paths outside /api/ get index.html, so the SPA's own
 * router decides what `/profile/…` shows; unknown /api/ paths stay JSON 404s.
 */
async function registerWebApp(app: App, deps: AppDeps, root: string | undefined): Promise<void> {
  if (!root) {
    deps.logger.warn('the web app is not built (npm run build); / will answer 404');
    app.setNotFoundHandler((_request, reply) => reply.status(404).send(notFound().toBody()));
    return;
  }
  const prerendered = findPrerenderedPages(root);
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    // `/` is answered below: by its prerendered page when there is one.
    index: false,
    // Prerendered pages are reached by their own addresses only; the server's renderer never.
    allowedPath: (pathName) => !pathName.startsWith(`/${PRERENDERED_DIR}/`) && !pathName.startsWith('/ssr/'),
    // The build writes .br and .gz copies beside each text file (apps/web/scripts/precompress.mjs);
    // the one the browser accepts is sent as is.
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      // Caches must keep the Brotli, gzip and plain copies apart, and a prerendered page's languages.
      res.setHeader(
        'vary',
        filePath.includes(`${path.sep}${PRERENDERED_DIR}${path.sep}`)
          ? 'accept-encoding, accept-language'
          : 'accept-encoding',
      );
      // Hashed assets never change; index.html must always be fresh to pick up new builds.
      res.setHeader(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
  // A landing page arrives with its first screen already in the HTML, in the visitor's language.
  for (const address of new Set(['/', ...prerendered.keys()])) {
    app.get(address, (request, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .sendFile(pageFileFor(prerendered, address, request.headers['accept-language'])),
    );
  }
  registerServerRenderedPages(app, deps, root);
  registerLinkPreviewPages(app, deps, root);
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url === '/api';
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(notFound().toBody());
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

/**
 * The feed arrives with its first screen in the HTML too, data included: rendered by the web app
 * itself in a worker thread (as a visitor without a session sees it, in their language), from the
 * same API answers the app then reuses, and kept for a short while. Any failure answers index.html,
 * as before; an address with a query (a search) is always the app's to render.
 */
function registerServerRenderedPages(app: App, deps: AppDeps, root: string): void {
  const found = findServerRenderedPages(root);
  if (!found) return;
  const renderer = createPageRenderer(found.workerFile);
  app.addHook('onClose', () => renderer.close());
  const pages = createRenderedPageCache(async (address, language) => {
    const answers: Record<string, unknown> = {};
    for (const url of SERVER_RENDERED_PAGES[address] ?? []) {
      const response = await app.inject({ method: 'GET', url, headers: { 'accept-language': language } });
      if (response.statusCode !== 200) return null;
      answers[url] = response.json();
    }
    try {
      const body = await renderer.render(address, language, answers);
      return fillPageTemplate(found.templates.get(address)!, language, body, answers);
    } catch (error) {
      deps.logger.warn({ err: error, address, language }, 'could not render a page; the app renders it');
      return null;
    }
  });
  for (const address of found.templates.keys()) {
    app.get(address, async (request, reply) => {
      const html =
        request.url === address
          ? await pages.get(address, pickLanguage(request.headers['accept-language']))
          : null;
      reply.header('cache-control', 'no-cache');
      if (html === null) return reply.sendFile('index.html');
      return reply
        .header('vary', 'accept-encoding, accept-language')
        .type('text/html; charset=utf-8')
        .send(html);
    });
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Links people share (a post's page, a result's share page) answer the app's page with their
 * preview in its head, in the visitor's language: messengers' and social networks' bots read the
 * Open Graph and Twitter card tags there and run no JavaScript. The page itself is the app's, with
 * its own access rules; a share link its owner stopped sharing answers 410, an unknown one 404.
 */
function registerLinkPreviewPages(app: App, deps: AppDeps, root: string): void {
  const template = readFileSync(path.join(root, 'index.html'), 'utf8');
  const send = (reply: FastifyReply, html: string, status = 200) =>
    reply
      .status(status)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding, accept-language')
      .type('text/html; charset=utf-8')
      .send(html);
  app.get<{ Params: { uuid: string } }>('/post/:uuid/', async (request, reply) => {
    const language = pickLanguage(request.headers['accept-language']);
    const { uuid } = request.params;
    if (!UUID_PATTERN.test(uuid)) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return send(
      reply,
      pageWithPreview(template, await postLinkPreview(deps, uuid.toLowerCase(), language), language),
    );
  });
  app.get<{ Params: { token: string } }>('/s/:token/', async (request, reply) => {
    const language = pickLanguage(request.headers['accept-language']);
    const { token } = request.params;
    if (!SHARE_TOKEN_PATTERN.test(token))
      return reply.status(404).header('cache-control', 'no-cache').sendFile('index.html');
    const { preview, status } = await shareLinkPreview(deps, token, language);
    return send(reply, pageWithPreview(template, preview, language), status);
  });
}

/** The built web app's folder, when it has an index.html. */
function findWebRoot(deps: AppDeps): string | undefined {
  const root = deps.config.webDistDir ?? findWebDist();
  return root && existsSync(path.join(root, 'index.html')) ? root : undefined;
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
