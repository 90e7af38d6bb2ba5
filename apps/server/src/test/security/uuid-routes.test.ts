import type { FaceAnalysis, FaceProfile } from '@mirra/imaging';
import { randomUUID } from 'node:crypto';
import { GenerationStatus } from '@mirra/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineRegistry } from '../../engines/index.js';
import { notificationsRepository } from '../../modules/notifications/notifications.repository.js';
import { modelPhotos, models, notifications, payoutRequests } from '../../shared/db/schema.js';
import { createUploadFor } from '../factories.js';
import { createScriptedEngine } from '../fake-engines.js';
import { multipartBody, twoToneImage } from '../images.js';
import {
  balanceOf,
  completedGeneration,
  createSwitchableModerator,
  publish,
  signedInPerson,
  type Person,
} from '../posts-factories.js';
import { createTestApp, type TestApp } from '../test-app.js';

// The standing probe of every route that names a resource by uuid: another person and a guest
// who hold the owner's uuids learn nothing from them. Routes are read from the running app and
// uuid fields from its OpenAPI document, so a new route with a path parameter, or a new uuid in a
// body or query, fails this suite until it is given a probe in ROUTES or REFERENCES below.

type Method = 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Resource =
  'generation' | 'upload' | 'model' | 'modelPhoto' | 'draftPost' | 'profile' | 'paymentOrder' | 'payout';

interface RouteProbe {
  /** Which of the owner's resources fills each path parameter. */
  params: Record<string, Resource>;
  /** A valid body, so a refusal cannot come from validation instead of the ownership check. */
  body?: () => { payload: unknown; headers?: Record<string, string> };
  /** `optional` routes answer a guest as they answer a stranger (404), `required` ones with 401. */
  auth: 'required' | 'optional';
  /**
   * Public by design (people's profiles): a stranger gets the resource, and the body is checked
   * for private data instead of a 404.
   */
  isPublic?: boolean;
}

const photoUpload = async () =>
  multipartBody([
    { name: 'files', filename: 'me.jpg', contentType: 'image/jpeg', data: await twoToneImage(400, 300) },
  ]);
let photoBody: { payload: Buffer; headers: Record<string, string> };

/** Every route with a path parameter, by `METHOD path` as Fastify declares it. */
const ROUTES: Record<string, RouteProbe> = {
  'GET /api/generations/:uuid/': { params: { uuid: 'generation' }, auth: 'required' },
  'POST /api/generations/:uuid/repeat/': { params: { uuid: 'generation' }, auth: 'required' },
  'POST /api/generations/:uuid/use_result/': { params: { uuid: 'generation' }, auth: 'required' },
  'GET /api/generations/:uuid/events/': { params: { uuid: 'generation' }, auth: 'required' },
  'GET /api/generations/:uuid/post/': { params: { uuid: 'generation' }, auth: 'required' },
  'GET /api/generations/:uuid/share/': { params: { uuid: 'generation' }, auth: 'required' },
  'POST /api/generations/:uuid/share/': { params: { uuid: 'generation' }, auth: 'required' },
  'DELETE /api/generations/:uuid/share/': { params: { uuid: 'generation' }, auth: 'required' },
  'GET /api/uploads/:uuid/': { params: { uuid: 'upload' }, auth: 'required' },
  'DELETE /api/uploads/:uuid/': { params: { uuid: 'upload' }, auth: 'required' },
  'GET /api/models/:uuid/': { params: { uuid: 'model' }, auth: 'required' },
  'DELETE /api/models/:uuid/': { params: { uuid: 'model' }, auth: 'required' },
  'POST /api/models/:uuid/photos/': {
    params: { uuid: 'model' },
    body: () => photoBody,
    auth: 'required',
  },
  'DELETE /api/models/:uuid/photos/:photo_uuid/': {
    params: { uuid: 'model', photo_uuid: 'modelPhoto' },
    auth: 'required',
  },
  'POST /api/models/:uuid/train/': { params: { uuid: 'model' }, auth: 'required' },
  'POST /api/models/:uuid/live-check/': { params: { uuid: 'model' }, auth: 'required' },
  'POST /api/models/:uuid/consent-link/': { params: { uuid: 'model' }, auth: 'required' },
  'GET /api/models/:uuid/events/': { params: { uuid: 'model' }, auth: 'required' },
  'GET /api/posts/:uuid/': { params: { uuid: 'draftPost' }, auth: 'optional' },
  'GET /api/posts/:uuid/image/': { params: { uuid: 'draftPost' }, auth: 'optional' },
  'PATCH /api/posts/:uuid/': {
    params: { uuid: 'draftPost' },
    body: () => ({ payload: { title: 'taken over', draft: false } }),
    auth: 'required',
  },
  'DELETE /api/posts/:uuid/': { params: { uuid: 'draftPost' }, auth: 'required' },
  'POST /api/posts/:uuid/save/': { params: { uuid: 'draftPost' }, auth: 'required' },
  'DELETE /api/posts/:uuid/save/': { params: { uuid: 'draftPost' }, auth: 'required' },
  'POST /api/posts/:uuid/view/': { params: { uuid: 'draftPost' }, auth: 'required' },
  'POST /api/posts/:uuid/report/': {
    params: { uuid: 'draftPost' },
    body: () => ({ payload: { reason: 'spam' } }),
    auth: 'required',
  },
  'POST /api/posts/:uuid/use_image/': { params: { uuid: 'draftPost' }, auth: 'required' },
  'GET /api/payments/orders/:uuid/': { params: { uuid: 'paymentOrder' }, auth: 'required' },
  'POST /api/payments/orders/:uuid/cancel/': { params: { uuid: 'paymentOrder' }, auth: 'required' },
  // The test provider's checkout opens with its token only, never with the order's uuid alone.
  'GET /api/payments/test/checkout/:uuid/': { params: { uuid: 'paymentOrder' }, auth: 'optional' },
  'POST /api/payments/test/checkout/:uuid/': {
    params: { uuid: 'paymentOrder' },
    body: () => ({ payload: 'action=pay', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    auth: 'optional',
  },
  // SberPay's return page opens with the invoice's token only, never with its uuid alone.
  'GET /api/payments/invoices/:uuid/': { params: { uuid: 'paymentOrder' }, auth: 'optional' },
  // Staff routes: everyone below the route's staff level, a guest included, gets the 404 of a
  // route that does not exist, before anything else is looked at.
  'POST /api/admin/models/:uuid/delete/': { params: { uuid: 'model' }, auth: 'optional' },
  'POST /api/admin/reports/:uuid/restore/': { params: { uuid: 'draftPost' }, auth: 'optional' },
  'POST /api/admin/reports/:uuid/remove/': { params: { uuid: 'draftPost' }, auth: 'optional' },
  'POST /api/admin/reports/:uuid/remove-and-ban/': { params: { uuid: 'draftPost' }, auth: 'optional' },
  'GET /api/admin/users/:uuid/': { params: { uuid: 'profile' }, auth: 'optional' },
  // A staff route: anyone below admin is answered as if it did not exist (no pack is anyone's).
  'PUT /api/admin/photo_packs/:uuid/': { params: { uuid: 'generation' }, auth: 'optional' },
  // A run's set is named by its first generation's uuid.
  'POST /api/generations/sets/:uuid/archive/': { params: { uuid: 'generation' }, auth: 'required' },
  'POST /api/admin/users/:uuid/ban/': { params: { uuid: 'profile' }, auth: 'optional' },
  'POST /api/admin/users/:uuid/unban/': { params: { uuid: 'profile' }, auth: 'optional' },
  'POST /api/admin/users/:uuid/export/': { params: { uuid: 'profile' }, auth: 'optional' },
  'POST /api/admin/users/:uuid/delete/': { params: { uuid: 'profile' }, auth: 'optional' },
  'POST /api/admin/users/:uuid/credits/': { params: { uuid: 'profile' }, auth: 'optional' },
  'POST /api/admin/generations/:uuid/refund/': { params: { uuid: 'generation' }, auth: 'optional' },
  'POST /api/admin/generations/:uuid/retry/': { params: { uuid: 'generation' }, auth: 'optional' },
  'GET /api/admin/users/:uuid/money/': { params: { uuid: 'profile' }, auth: 'optional' },
  'POST /api/admin/payments/:uuid/refund/': { params: { uuid: 'paymentOrder' }, auth: 'optional' },
  'POST /api/admin/payouts/:uuid/approve/': { params: { uuid: 'payout' }, auth: 'optional' },
  'POST /api/admin/payouts/:uuid/reject/': { params: { uuid: 'payout' }, auth: 'optional' },
  'GET /api/users/:uuid/': { params: { uuid: 'profile' }, auth: 'required', isPublic: true },
  'GET /api/users/:uuid/posts/': { params: { uuid: 'profile' }, auth: 'required', isPublic: true },
  'POST /api/users/:uuid/subscribe/': { params: { uuid: 'profile' }, auth: 'required', isPublic: true },
  'DELETE /api/users/:uuid/subscribe/': { params: { uuid: 'profile' }, auth: 'required', isPublic: true },
};

// Any path parameter at all: every one names a resource by uuid, and a new one must be looked at
// here whatever it is called — unless it names no one's resource (listed below, with why).
const NOT_A_RESOURCE: Record<string, string> = {
  // A currency code: each person only ever sees their own wallet in it.
  'GET /api/wallet/transactions/:currency/': 'the caller’s own wallet, by ISO currency number',
  // A share link's random token is the key itself (its owner handed it out, and can revoke it).
  'GET /api/shares/:token/': 'a shared result, by the unguessable token of its link',
  'GET /api/shares/:token/image/': 'a shared result’s preview picture, by the token of its link',
  'GET /s/:token/': 'the web app’s share page, by the token of its link',
  // A consent link's signed token is the key itself: the model's owner hands it to the person in
  // the photos, who confirms or withdraws with it (and with their own face, for a confirmation).
  'GET /api/consents/:token/': 'a consent request, by the signed token of its link',
  'POST /api/consents/:token/live-check/': 'the person’s own live check, by the signed token of the link',
  'POST /api/consents/:token/withdraw/': 'a withdrawal of consent, by the signed token of the link',
  // The web app's page for any uuid; its preview tags show only a published post (a draft, a hidden
  // post and no post at all answer the same site preview).
  'GET /post/:uuid/': 'the web app’s page; the post itself is read through GET /api/posts/:uuid/',
};
const PATH_PARAM = /:([A-Za-z_]+)(?=\/|$)/g;

/**
 * `METHOD path` of every route the app serves, read from Fastify's route tree (hidden routes
 * included, unlike the OpenAPI document). HEAD is Fastify's automatic twin of GET and is probed
 * with it.
 */
function listRoutes(app: TestApp['app']): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const prefixes: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (prefixes[depth - 1] ?? '') + match[2]!;
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) routes.push(`${method} ${path}`);
  }
  return routes;
}

let t: TestApp;
let owner: Person;
let stranger: Person;
const DRAFT_TITLE = 'draft title nobody else may read';
const DRAFT_PROMPT = 'draft prompt nobody else may read';
const PRIVATE_PROMPT = 'unpublished prompt nobody else may read';
const ids = {} as Record<Resource, string>;
let published: { uuid: string };
let sourcePhoto: { uuid: string; key: string };
let editedGenerationUuid: string;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      ENGINE_SIMPLE: 'test',
      ENGINE_EDITING: 'test',
      ENGINE_FACE_SWAP: 'test',
      ENGINE_INPAINT: 'test',
      FREE_DAILY_PHOTOS: '1000',
    },
    overrides: { imageModerator: createSwitchableModerator() },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [createScriptedEngine('test')]);
  owner = await signedInPerson(t, { firstName: 'Owner' });
  stranger = await signedInPerson(t, { firstName: 'Stranger' });
  photoBody = await photoUpload();

  // A published post made from the owner's own photo: public, but the photo is not.
  sourcePhoto = await createUploadFor(t, owner.user.id);
  const edited = await completedGeneration(t, owner, {
    mode: 'editing',
    prompt: 'make it brighter',
    images: [sourcePhoto.uuid],
  });
  editedGenerationUuid = edited.uuid;
  published = await publish(t, owner, edited.uuid, { title: 'for everyone' });

  const drafted = await completedGeneration(t, owner, { mode: 'simple', prompt: DRAFT_PROMPT });
  ids.draftPost = (await publish(t, owner, drafted.uuid, { draft: true, title: DRAFT_TITLE })).uuid;
  ids.generation = (await completedGeneration(t, owner, { mode: 'simple', prompt: PRIVATE_PROMPT })).uuid;
  ids.upload = (await createUploadFor(t, owner.user.id)).uuid;

  const model = await t.app.inject({
    method: 'POST',
    url: '/api/models/',
    headers: owner.headers,
    payload: { name: 'Private model', category: 'female' },
  });
  expect(model.statusCode, model.body).toBe(201);
  ids.model = model.json().uuid;
  const [modelRow] = await t.deps.db.select().from(models).where(eq(models.uuid, ids.model));
  const [photoRow] = await t.deps.db
    .insert(modelPhotos)
    .values({
      modelId: modelRow!.id,
      userId: owner.user.id,
      storageKey: `models/${owner.user.id}/${ids.model}/photo.jpg`,
      thumbnailKey: `models/${owner.user.id}/${ids.model}/thumb.webp`,
      width: 400,
      height: 300,
      bytes: 1000,
      // Never read here: no job that would analyse or judge the photo runs.
      analysis: {} as FaceAnalysis,
      ok: true,
    })
    .returning();
  ids.modelPhoto = photoRow!.uuid;
  // Trained, as far as a face swap's checks go (its job, which would read the profile, never runs).
  await t.deps.db
    .update(models)
    .set({
      status: GenerationStatus.COMPLETED,
      profile: { references: [{ photoId: ids.modelPhoto }] } as unknown as FaceProfile,
    })
    .where(eq(models.id, modelRow!.id));
  ids.profile = owner.user.uuid;
  const order = await t.app.inject({
    method: 'POST',
    url: '/api/payments/orders/',
    headers: owner.headers,
    payload: { product: 'credits_100', method: 'test', agree_offer: true, agree_privacy: true },
  });
  expect(order.statusCode, order.body).toBe(201);
  ids.paymentOrder = order.json().uuid;
  // A pay-out request of the owner's, as the partner programme writes it.
  const [payout] = await t.deps.db
    .insert(payoutRequests)
    .values({
      userId: owner.user.id,
      currency: 643,
      amount: 150_000,
      method: 'card',
      requisites: { method: 'card', card: '4242424242424242', holder: 'OWNER' },
      clientKey: 'uuid-routes-payout',
      createdAt: new Date(),
    })
    .returning();
  ids.payout = payout!.uuid;
}, 60_000);
afterAll(() => t?.close());

const call = (who: Person | null, method: Method, url: string, probe: RouteProbe) => {
  const body = probe.body?.();
  return t.app.inject({
    method,
    url,
    headers: { ...who?.headers, ...body?.headers },
    ...(body ? { payload: body.payload as string } : {}),
  });
};
const fill = (route: string, value: (param: string) => string) => {
  const [method, path] = route.split(' ') as [Method, string];
  return { method, url: path.replace(PATH_PARAM, (_, name: string) => value(name)) };
};

/** Nothing in a body that only the owner may know, whatever the field is called. */
function expectNothingPrivate(body: string) {
  for (const secret of [
    owner.user.email!,
    sourcePhoto.uuid,
    sourcePhoto.key,
    'uploads/',
    editedGenerationUuid,
    ids.generation,
    ids.draftPost,
    ids.model,
    ids.modelPhoto,
    ids.upload,
    DRAFT_TITLE,
    DRAFT_PROMPT,
    PRIVATE_PROMPT,
  ]) {
    expect(body).not.toContain(secret);
  }
  const keys = new Set<string>();
  JSON.parse(body || 'null', (key, value: unknown) => {
    if (value !== null) keys.add(key);
    return value;
  });
  for (const key of ['email', 'phone', 'referer', 'referral_code', 'reflink', 'balance', 'images']) {
    expect(keys, `private field ${key}`).not.toContain(key);
  }
}

describe('every route with a path parameter', () => {
  it('has a fixture here, and every fixture names a route the app serves', () => {
    const uuidRoutes = listRoutes(t.app).filter(
      (route) =>
        !route.startsWith('HEAD ') && new RegExp(PATH_PARAM.source).test(route) && !(route in NOT_A_RESOURCE),
    );
    expect(uuidRoutes.length).toBeGreaterThan(0);
    expect(
      uuidRoutes.filter((route) => !(route in ROUTES)),
      'uuid routes without a fixture',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((route) => !uuidRoutes.includes(route)),
      'stale fixtures',
    ).toEqual([]);
  });

  const privateRoutes = Object.entries(ROUTES).filter(([, probe]) => !probe.isPublic);
  const withHead = <T extends [string, RouteProbe]>(routes: T[]) =>
    routes.flatMap((entry) =>
      entry[0].startsWith('GET ') ? [entry, [entry[0].replace('GET ', 'HEAD '), entry[1]] as T] : [entry],
    );

  it.each(withHead(privateRoutes))(
    '%s: a stranger with the owner’s uuids gets the same 404 as for uuids that do not exist',
    async (route, probe) => {
      const target = fill(route, (param) => ids[probe.params[param]!]);
      const nowhere = fill(route, () => randomUUID());
      const forOwners = await call(stranger, target.method, target.url, probe);
      const forNothing = await call(stranger, nowhere.method, nowhere.url, probe);
      expect(forOwners.statusCode, forOwners.body).toBe(404);
      expect(forNothing.statusCode).toBe(404);
      expect(forOwners.body).toBe(forNothing.body);
      if (target.method !== 'HEAD') expect(forOwners.json()).toMatchObject({ detail: 'Not found.' });
    },
  );

  it.each(withHead(Object.entries(ROUTES)))(
    '%s: a guest with the owner’s uuids is refused and learns nothing',
    async (route, probe) => {
      const target = fill(route, (param) => ids[probe.params[param]!]);
      const response = await call(null, target.method, target.url, probe);
      if (probe.auth === 'required') {
        expect(response.statusCode, response.body).toBe(401);
        if (target.method !== 'HEAD') expect(response.json().code).toBe('auth.not_authenticated');
      } else {
        const nowhere = fill(route, () => randomUUID());
        expect(response.statusCode, response.body).toBe(404);
        expect(response.body).toBe((await call(null, nowhere.method, nowhere.url, probe)).body);
      }
    },
  );

  it.each(Object.entries(ROUTES).filter(([, probe]) => probe.isPublic))(
    '%s: public by design, yet a stranger sees nothing private',
    async (route, probe) => {
      const target = fill(route, (param) => ids[probe.params[param]!]);
      const response = await call(stranger, target.method, target.url, probe);
      expect(response.statusCode, response.body).toBeLessThan(300);
      expectNothingPrivate(response.body);
    },
  );

  it('after all of the above the owner’s resources are unchanged', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: owner.headers });
    expect((await get(`/api/posts/${ids.draftPost}/`)).json()).toMatchObject({
      status: 'draft',
      title: DRAFT_TITLE,
      saves_count: 0,
      views_count: 0,
    });
    expect((await get(`/api/generations/${ids.generation}/`)).statusCode).toBe(200);
    expect((await get(`/api/uploads/${ids.upload}/`)).statusCode).toBe(200);
    const model = (await get(`/api/models/${ids.model}/`)).json();
    expect(model).toMatchObject({ uuid: ids.model, status: GenerationStatus.COMPLETED });
    expect(model.photos.map((photo: { uuid: string }) => photo.uuid)).toEqual([ids.modelPhoto]);
    expect((await get(`/api/payments/orders/${ids.paymentOrder}/`)).json()).toMatchObject({
      status: 'pending',
    });
  });
});

/**
 * Every uuid a request body or query string names (read from the OpenAPI document), with how a
 * stranger would name the owner's resource there; or why holding the uuid is the permission.
 */
interface ReferenceProbe {
  resource?: Resource;
  body?: (uuid: string) => object;
  capability?: string;
}
const REFERENCES: Record<string, ReferenceProbe> = {
  'POST /api/generations/ images': {
    resource: 'upload',
    body: (uuid) => ({ mode: 'editing', prompt: 'make it brighter', images: [uuid] }),
  },
  'POST /api/generations/ model_uuid': {
    resource: 'model',
    // Face swap is the mode that reads the model (others keep the field unread).
    body: (uuid) => ({ mode: 'face_swap', prompt: 'a portrait in a garden', model_uuid: uuid }),
  },
  'POST /api/generations/ post_uuid': {
    resource: 'draftPost',
    body: (uuid) => ({ mode: 'simple', prompt: DRAFT_PROMPT, post_uuid: uuid }),
  },
  'POST /api/posts/ generation_uuid': {
    resource: 'generation',
    body: (uuid) => ({ generation_uuid: uuid, title: '' }),
  },
  'POST /api/wallet/transfers/user/ to': {
    capability:
      'a person’s public profile uuid: money may be sent to anyone whose profile one can see, and nothing of theirs is read',
  },
  'GET /api/tg/get_token/ uuid': {
    capability:
      'the poll handle of a sign-in through the bot: only the browser that asked for the key gets it, and the tokens are handed out once',
  },
  'GET /api/generations/ set': {
    capability:
      'a filter of the caller’s own generations (a run’s pictures): another person’s set lists nothing (tested below)',
  },
  'GET /api/generations/price/ pack': {
    capability:
      'a photo pack on sale: the catalogue lists every one to anyone, and nothing of a person is read',
  },
  'POST /api/admin/photo_packs/ cover_upload': {
    capability:
      'the staff member’s own upload as a pack’s cover: the route answers 404 to anyone below admin, and only the caller’s uploads are read',
  },
  'PUT /api/admin/photo_packs/{uuid}/ cover_upload': {
    capability:
      'the staff member’s own upload as a pack’s cover: the route answers 404 to anyone below admin, and only the caller’s uploads are read',
  },
  'GET /api/admin/audit/ staff': {
    capability:
      'a staff filter of the audit log: the route answers 404 to anyone below admin, and admins read the whole log',
  },
};

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}
const isUuidSchema = (schema: unknown): boolean => {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as { format?: string; items?: unknown; anyOf?: unknown[] };
  return s.format === 'uuid' || isUuidSchema(s.items) || (s.anyOf ?? []).some(isUuidSchema);
};

describe('every uuid in a request body or query string', () => {
  it('has a probe here, and every probe names a field the API takes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, OpenApiOperation>>;
    };
    const fields: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const at = `${method.toUpperCase()} ${path}`;
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === 'query' && isUuidSchema(parameter.schema))
            fields.push(`${at} ${parameter.name}`);
        }
        for (const content of Object.values(operation.requestBody?.content ?? {})) {
          for (const [name, schema] of Object.entries(content.schema?.properties ?? {})) {
            if (isUuidSchema(schema)) fields.push(`${at} ${name}`);
          }
        }
      }
    }
    expect(
      fields.filter((field) => !(field in REFERENCES)),
      'uuid fields without a probe',
    ).toEqual([]);
    expect(
      Object.keys(REFERENCES).filter((field) => !fields.includes(field)),
      'stale probes',
    ).toEqual([]);
    for (const probe of Object.values(REFERENCES))
      expect(Boolean(probe.capability) !== Boolean(probe.body)).toBe(true);
  });

  it.each(Object.entries(REFERENCES).filter(([, probe]) => probe.body))(
    '%s: a stranger naming the owner’s resource is answered as for a uuid that does not exist, and nothing is made or charged',
    async (field, probe) => {
      const [method, url] = field.split(' ') as [Method, string];
      const send = (uuid: string) =>
        t.app.inject({ method, url, headers: stranger.headers, payload: probe.body!(uuid) });
      const creditsBefore = await balanceOf(t, stranger.user.id);
      const forOwners = await send(ids[probe.resource!]);
      const forNothing = await send(randomUUID());
      expect(forOwners.statusCode, forOwners.body).toBeGreaterThanOrEqual(400);
      expect(forOwners.statusCode).toBe(forNothing.statusCode);
      expect(forOwners.body).toBe(forNothing.body);
      expect(await balanceOf(t, stranger.user.id)).toBe(creditsBefore);
      const made = await t.app.inject({ method: 'GET', url: '/api/generations/', headers: stranger.headers });
      expect(made.json().results).toEqual([]);
      // The same request is fine for the owner: the stranger was refused for not owning it.
      const forTheOwner = await t.app.inject({
        method,
        url,
        headers: owner.headers,
        payload: probe.body!(ids[probe.resource!]),
      });
      expect(forTheOwner.statusCode, forTheOwner.body).toBe(201);
    },
  );
});

describe('uuids inside a request', () => {
  it('a stranger naming the owner’s run lists nothing, and the owner’s upload as a mask is answered as a missing one', async () => {
    const run = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: owner.headers,
      payload: { mode: 'simple', prompt: PRIVATE_PROMPT, count: 2 },
    });
    expect(run.statusCode, run.body).toBe(201);
    const setUuid = run.json().set.uuid as string;
    const strangers = await t.app.inject({
      method: 'GET',
      url: `/api/generations/?set=${setUuid}`,
      headers: stranger.headers,
    });
    expect(strangers.json()).toEqual({ results: [], next: null });
    const owners = await t.app.inject({
      method: 'GET',
      url: `/api/generations/?set=${setUuid}`,
      headers: owner.headers,
    });
    expect(owners.json().results).toHaveLength(2);

    const photo = (await createUploadFor(t, stranger.user.id)).uuid;
    const creditsBefore = await balanceOf(t, stranger.user.id);
    // The mask (and the garment, checked by the same loop over UPLOAD_SETTINGS) is an upload.
    const send = (uuid: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/generations/',
        headers: stranger.headers,
        payload: { mode: 'inpaint', images: [photo], settings: { mask: uuid } },
      });
    const forOwners = await send(ids.upload);
    const forNothing = await send(randomUUID());
    expect(forOwners.statusCode, forOwners.body).toBe(400);
    expect(forOwners.body).toBe(forNothing.body);
    // The stranger's own upload as the mask is taken: the refusal was for not owning it.
    const ownMask = await send(photo);
    expect(ownMask.statusCode, ownMask.body).toBe(201);
    expect(await balanceOf(t, stranger.user.id)).toBe(creditsBefore - ownMask.json().cost);
  });
});

describe('idempotency keys', () => {
  it('a key the owner used opens nothing of the owner’s for a stranger who sends it', async () => {
    const key = `owners-key-${randomUUID()}`;
    const create = (who: Person, prompt: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/generations/',
        headers: { ...who.headers, 'idempotency-key': key },
        payload: { mode: 'simple', prompt },
      });
    const owners = await create(owner, PRIVATE_PROMPT);
    expect(owners.statusCode).toBe(201);
    const strangers = await create(stranger, 'a lighthouse');
    expect(strangers.statusCode).toBe(201);
    expect(strangers.json()).toMatchObject({ prompt: 'a lighthouse' });
    expect(strangers.body).not.toContain(owners.json().uuid);
    expect(strangers.body).not.toContain(PRIVATE_PROMPT);
  });
});

describe('resources that are public by design', () => {
  it('a published post shows guests and strangers its picture and recipe, not its source photo or generation', async () => {
    for (const who of [null, stranger]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/posts/${published.uuid}/`,
        headers: who?.headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ uuid: published.uuid, generation_uuid: null, is_mine: false });
      expectNothingPrivate(response.body);
    }
  });

  it('profiles looked up by uuid show nothing private', async () => {
    for (const url of [
      `/api/users/by_id/?id=${owner.user.uuid}`,
      `/api/users/by_ids/?id[]=${owner.user.uuid}`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers: stranger.headers });
      expect(response.statusCode, url).toBe(200);
      expectNothingPrivate(response.body);
    }
  });
});

describe('notifications', () => {
  it('a stranger marking the owner’s notification read by its id changes nothing', async () => {
    await notificationsRepository.insert(t.deps.db, {
      userId: owner.user.id,
      kind: 'new_subscriber',
      data: {},
    });
    const unread = () =>
      t.app.inject({ method: 'GET', url: '/api/notifications/unread/', headers: owner.headers });
    const before = (await unread()).json();
    const ownersIds = (
      await t.deps.db.select().from(notifications).where(eq(notifications.userId, owner.user.id))
    ).map((row) => row.id);
    expect(ownersIds.length).toBeGreaterThan(0);
    const marked = await t.app.inject({
      method: 'POST',
      url: '/api/notifications/read/',
      headers: stranger.headers,
      payload: { ids: ownersIds },
    });
    expect(marked.statusCode).toBe(200);
    expect((await unread()).json()).toEqual(before);
    expect(before).not.toEqual({ unread: 0 });
  });
});
