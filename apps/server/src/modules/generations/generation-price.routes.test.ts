import { and, eq } from 'drizzle-orm';
import {
  GENERATION_MODES,
  modeDeclaration,
  spokenSeconds,
  STYLES,
  VIDEO_DURATIONS,
  type TGenerationMode,
  type ToolSettings,
} from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditEntries } from '../../shared/db/schema.js';
import { applyCreditChange } from '../credits/credits.usecases.js';
import { createEngineRegistry } from '../../engines/index.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTrainedModel } from '../../test/models.js';
import { distinctModePrices, everyModeServedBy, picturesOf, settingsFor } from '../../test/mode-env.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// The price a person is shown (/price/) and the price the create charges come from one function,
// and a video is rendered for the seconds it was priced for. Checked for every mode and every
// length (none given, and each one offered), with prices that differ per mode.
let t: TestApp;
const engine = createScriptedEngine('test');
let headers: Record<string, string>;
let userId: number;
let modelUuid: string;
let photo: string;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      FREE_DAILY_PHOTOS: '1000',
      ...everyModeServedBy('test'),
      // A different price per mode, so a price applied to the wrong mode shows.
      ...distinctModePrices({ video_per_second: 2 }),
      PRICE_MODEL_TRAINING: '1',
      // The scripted engine paints a plain colour, no person: the likeness check (tested in
      // fal.likeness.test.ts) would make each face picture twice.
      LIKENESS_THRESHOLD: '0',
    },
  });
  const user = await createActiveUser(t);
  userId = user.id;
  await t.deps.db.transaction((tx) =>
    applyCreditChange(tx, { userId, delta: 1000, kind: 'adjustment', idempotencyKey: `price-${userId}` }),
  );
  headers = bearer((await login(t, user.email!, user.password)).access);
  // Trained on the local engine; the generations themselves run on the scripted one.
  modelUuid = await createTrainedModel(t, headers);
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
  photo = (await createUploadFor(t, userId)).uuid;
}, 180_000);
afterAll(() => t?.close());

function requestFor(mode: TGenerationMode, duration: number | undefined): Record<string, unknown> {
  const base = { mode, prompt: 'a quiet harbour at dawn' };
  if (mode === 'editing') return { ...base, images: [photo] };
  if (mode === 'styling') return { mode, images: [photo], style: STYLES[0] };
  if (mode === 'face_swap') return { mode, images: [photo], model_uuid: modelUuid };
  if (mode === 'video') return { ...base, ...(duration === undefined ? {} : { duration }) };
  if (mode === 'simple') return base;
  if (mode === 'photo_pack') return { mode, model_uuid: modelUuid, settings: settingsFor(mode, photo) };
  // A tool: the photo and the settings its declaration takes.
  return { ...base, images: [photo], settings: settingsFor(mode, photo) };
}

/** The price query names the photo pack a pack run buys. */
function settingsQuery(settings: ToolSettings): Record<string, string> {
  return settings.pack ? { pack: settings.pack } : {};
}

async function charged(uuid: string): Promise<number> {
  const rows = await t.deps.db
    .select()
    .from(creditEntries)
    .where(and(eq(creditEntries.userId, userId), eq(creditEntries.ref, uuid)));
  return -rows.filter((row) => row.kind === 'generation_charge').reduce((sum, row) => sum + row.delta, 0);
}

describe('the price shown is the price charged', () => {
  const cases = GENERATION_MODES.flatMap((mode) =>
    (mode === 'video' ? [undefined, ...VIDEO_DURATIONS] : [undefined]).map((duration) => ({
      mode,
      duration,
    })),
  );

  it.each(cases)(
    '$mode, length $duration: quoted, charged and rendered alike',
    async ({ mode, duration }) => {
      const request = requestFor(mode, duration);
      const pictures = picturesOf(request);
      // Words to be spoken are quoted for their seconds of speech, as the form asks.
      const spoken =
        modeDeclaration(mode).inputs.promptIs === 'speech'
          ? spokenSeconds(request as { prompt: string })
          : undefined;
      const query = new URLSearchParams({
        mode,
        ...(duration === undefined ? {} : { duration: String(duration) }),
        ...(spoken === undefined ? {} : { duration: String(spoken) }),
        ...(request.settings ? settingsQuery(request.settings as ToolSettings) : {}),
      });
      const quote = await t.app.inject({ method: 'GET', url: `/api/generations/price/?${query}`, headers });
      expect(quote.statusCode, quote.body).toBe(200);

      engine.calls.length = 0;
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/generations/',
        headers,
        payload: request,
      });
      expect(created.statusCode, created.body).toBe(201);
      // A run of several pictures (a photo pack) is quoted whole and charged picture by picture.
      expect(created.json().cost * pictures).toBe(quote.json().cost);
      expect(await charged(created.json().uuid)).toBe(quote.json().cost / pictures);

      await t.runJobs();
      expect(engine.calls).toHaveLength(pictures);
      if (mode === 'video') {
        // Rendered for exactly the seconds it was priced for, and that length is one offered.
        const seconds = engine.calls[0]!.durationSeconds!;
        expect(VIDEO_DURATIONS as readonly number[]).toContain(seconds);
        expect(quote.json().cost).toBe(seconds * t.deps.config.prices.video_per_second);
        expect(created.json().duration).toBe(seconds);
        if (duration !== undefined) expect(seconds).toBe(duration);
      }
    },
  );

  it('a run of four pictures at 9:16: priced per picture, each its own generation of one set, a failed one refunded alone', async () => {
    const quote = await t.app.inject({
      method: 'GET',
      url: '/api/generations/price/?mode=simple&count=4',
      headers,
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().cost).toBe(4 * t.deps.config.prices.simple);

    engine.calls.length = 0;
    // The third picture fails at the engine for good; the others are made.
    engine.script(
      { kind: 'succeed' },
      { kind: 'succeed' },
      { kind: 'throw', code: 'engine.failed', retryable: false },
      { kind: 'succeed' },
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers,
      payload: { mode: 'simple', prompt: 'a quiet harbour at dawn', count: 4, aspect: '9:16' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const first = created.json();
    expect(first.cost).toBe(t.deps.config.prices.simple);
    expect(first.set).toEqual({ uuid: first.uuid, index: 0, size: 4 });
    const listed = await t.app.inject({ method: 'GET', url: `/api/generations/?set=${first.uuid}`, headers });
    const members = listed.json().results as Array<{
      uuid: string;
      seed: number;
      aspect: string;
      set: unknown;
    }>;
    expect(members.map((member) => member.set)).toEqual(
      [0, 1, 2, 3].map((index) => ({ uuid: first.uuid, index, size: 4 })),
    );
    expect(new Set(members.map((member) => member.seed)).size).toBe(4);
    expect(members.every((member) => member.aspect === '9:16')).toBe(true);
    for (const member of members) expect(await charged(member.uuid)).toBe(t.deps.config.prices.simple);

    await t.runJobs();
    expect(engine.calls).toHaveLength(4);
    expect(engine.calls.every((call) => call.aspect === '9:16')).toBe(true);
    const ended = await Promise.all(
      members.map(async (member) =>
        (await t.app.inject({ method: 'GET', url: `/api/generations/${member.uuid}/`, headers })).json(),
      ),
    );
    const failed = ended.filter((generation) => generation.status < 0);
    expect(failed).toHaveLength(1);
    expect(failed[0].refunded).toBe(true);
    expect(ended.filter((generation) => generation.status === 100)).toHaveLength(3);
    // The failed picture's charge came back; the three made stay paid.
    const refunds = await t.deps.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.userId, userId), eq(creditEntries.kind, 'generation_refund')));
    expect(refunds.filter((entry) => members.some((member) => member.uuid === entry.ref))).toEqual([
      expect.objectContaining({ ref: failed[0].uuid, delta: t.deps.config.prices.simple }),
    ]);
  });

  it('refuses a run the balance cannot pay for whole, naming its whole price, and charges nothing', async () => {
    const poor = await createActiveUser(t);
    await t.deps.db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: poor.id,
        delta: 3 * t.deps.config.prices.simple,
        kind: 'adjustment',
        idempotencyKey: `price-poor-${poor.id}`,
      }),
    );
    const poorHeaders = bearer((await login(t, poor.email!, poor.password)).access);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: poorHeaders,
      payload: { mode: 'simple', prompt: 'a quiet harbour at dawn', count: 4 },
    });
    expect(created.statusCode, created.body).toBe(402);
    expect(created.json()).toMatchObject({ required: 4 * t.deps.config.prices.simple });
    const listed = await t.app.inject({ method: 'GET', url: '/api/generations/', headers: poorHeaders });
    expect(listed.json().results).toEqual([]);
  });

  it('quotes no price for a length that is not offered, as the create refuses it', async () => {
    const quote = await t.app.inject({
      method: 'GET',
      url: '/api/generations/price/?mode=video&duration=4',
      headers,
    });
    expect(quote.statusCode).toBe(400);
    expect(quote.json().duration).toBeDefined();
  });
});
