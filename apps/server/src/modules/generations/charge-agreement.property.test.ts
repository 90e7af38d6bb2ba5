import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GENERATION_MODES,
  GenerationStatus,
  modeDeclaration,
  readsPrompt,
  spokenSeconds,
  STYLES,
  VIDEO_ASPECTS,
  IMAGE_ASPECTS,
  VIDEO_DURATIONS,
  type TGenerationMode,
} from '@mirra/contracts';
import type { FaceProfile } from '@mirra/imaging';
import { creditEntries, entitlements, generations, models, users } from '../../shared/db/schema.js';
import { createEngineRegistry } from '../../engines/index.js';
import { bearer, createUploadFor } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { distinctModePrices, everyModeServedBy, picturesOf, settingsFor } from '../../test/mode-env.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyCreditChange } from '../credits/credits.usecases.js';
import { issueSession } from '../auth/sessions.usecases.js';
import { createUser } from '../users/users.usecases.js';
import { startOfLocalDay } from './generations.models.js';
import { generationsRepository } from './generations.repository.js';

// A property over random requests of every mode and random people: the price /price/ shows is the
// price the create charges (the answer, the row and the ledger entry), and the free-tier decision
// /price/ announces (wait_seconds) is the one the create applies. Both are also checked against
// the free tier's rule as stated below, so a change of the rule on one side only cannot pass.
// The seed is random per run and printed with any failure; MIRRA_PROPERTY_SEED replays one.
const CASES = Number(process.env.MIRRA_PROPERTY_CASES ?? 100);
const SEED = Number(process.env.MIRRA_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DAILY_FREE = 3;
const DELAY_SECONDS = 60;
const HOUR = 3600_000;

/** mulberry32: small, seedable, good enough to draw test inputs. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}

let t: TestApp;
let photo: Buffer;
const engine = createScriptedEngine('test');

beforeAll(async () => {
  t = await createTestApp({
    env: {
      FREE_DAILY_PHOTOS: String(DAILY_FREE),
      FREE_DELAY_SECONDS: String(DELAY_SECONDS),
      ...everyModeServedBy('test'),
      // A different price per mode, so a price applied to the wrong mode shows.
      ...distinctModePrices({ video_per_second: 2 }),
    },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#8a6' } })
    .jpeg()
    .toBuffer();
});
afterAll(() => t?.close());

type Random = ReturnType<typeof seeded>;
interface PastGeneration {
  createdAt: Date;
  status: number;
}
interface Person {
  now: Date;
  timezoneOffset: number | null;
  freeDayStartedAt: Date | null;
  past: PastGeneration[];
  entitlement: { kind: 'premium' | 'unlimited'; until: Date } | null;
  balance: number;
}

const STATUSES = [
  GenerationStatus.NEW,
  GenerationStatus.IN_QUEUE,
  GenerationStatus.IN_PROGRESS,
  GenerationStatus.COMPLETED,
  GenerationStatus.ERROR,
  GenerationStatus.FAILED,
];

function drawPerson(random: Random): Person {
  const now = new Date(Date.UTC(2026, 5, 10) + random.int(0, 48 * 60) * 60_000 + random.int(0, 59_999));
  const past: PastGeneration[] = [];
  for (let i = random.int(0, 6); i > 0; i--) {
    // Some just now (inside the pause), some earlier today, some before the day began.
    const ago = random.chance(0.5) ? random.int(0, 120_000) : random.int(0, 40 * HOUR);
    past.push({ createdAt: new Date(now.getTime() - ago), status: random.pick(STATUSES) });
  }
  const entitlement = random.chance(0.3)
    ? {
        kind: random.pick(['premium', 'unlimited'] as const),
        until: new Date(now.getTime() + (random.chance(0.7) ? 1 : -1) * random.int(1, 48) * HOUR),
      }
    : null;
  return {
    now,
    timezoneOffset: random.chance(0.2) ? null : random.int(-840, 720),
    freeDayStartedAt: random.chance(0.4) ? null : new Date(now.getTime() - random.int(0, 60) * HOUR),
    past,
    entitlement,
    balance: random.int(0, 30),
  };
}

/** The free tier's rule, stated once more here as the test's own expectation. */
function expectedWait(person: Person): number {
  const offset = person.timezoneOffset ?? 0;
  const local = new Date(person.now.getTime() - offset * 60_000);
  local.setUTCHours(0, 0, 0, 0);
  const localMidnight = local.getTime() + offset * 60_000;
  // A day counted before lasts at least 24 h, whatever the cookie says.
  const previous = person.freeDayStartedAt?.getTime();
  const dayStart = previous !== undefined && localMidnight < previous + 24 * HOUR ? previous : localMidnight;
  // Failed generations were refunded and made nothing: they do not count.
  const counted = person.past.filter((g) => g.createdAt.getTime() >= dayStart && g.status >= 0);
  const lifted = person.entitlement !== null && person.entitlement.until >= person.now;
  if (lifted || counted.length < DAILY_FREE) return 0;
  const last = Math.max(...counted.map((g) => g.createdAt.getTime()));
  return Math.max(0, Math.ceil(DELAY_SECONDS - (person.now.getTime() - last) / 1000));
}

async function setUp(person: Person) {
  const user = await createUser(t.deps.db, { email: `prop-${randomUUID()}@example.com`, isActive: true });
  const { db } = t.deps;
  if (person.freeDayStartedAt) {
    await db.update(users).set({ freeDayStartedAt: person.freeDayStartedAt }).where(eq(users.id, user.id));
  }
  if (person.past.length) {
    await db.insert(generations).values(
      person.past.map((g) => ({
        userId: user.id,
        mode: 'simple',
        status: g.status,
        prompt: 'earlier',
        guidance: 7.5,
        seed: 1,
        cost: 1,
        engine: 'test',
        createdAt: g.createdAt,
      })),
    );
  }
  if (person.entitlement) await db.insert(entitlements).values({ userId: user.id, ...person.entitlement });
  if (person.balance > 0) {
    await db.transaction((tx) =>
      applyCreditChange(tx, {
        userId: user.id,
        delta: person.balance,
        kind: 'adjustment',
        idempotencyKey: `prop-${user.id}`,
      }),
    );
  }
  const image = (await createUploadFor(t, user.id, photo)).uuid;
  const [model] = await db
    .insert(models)
    .values({
      userId: user.id,
      name: 'Me',
      category: 'female',
      status: GenerationStatus.COMPLETED,
      profile: { references: [{}] } as unknown as FaceProfile,
    })
    .returning();
  const access = (await issueSession(t.deps, db, user.id)).access;
  return { userId: user.id, headers: bearer(access), image, modelUuid: model!.uuid };
}

/** A valid request of the mode, drawn from what its declaration says it takes. */
function drawRequest(random: Random, mode: TGenerationMode, image: string, modelUuid: string) {
  const { inputs } = modeDeclaration(mode);
  const prompt = random.pick(['a quiet harbour at dawn', 'a red bicycle in the snow']);
  const withPhoto = inputs.photo === 'required' || (inputs.photo === 'optional' && random.chance(0.5));
  const needsPrompt = inputs.prompt === 'required' || (inputs.prompt === 'without_photo' && !withPhoto);
  const givesPrompt = readsPrompt(mode, withPhoto ? 1 : 0) && (needsPrompt || random.chance(0.5));
  return {
    mode,
    ...(givesPrompt ? { prompt } : {}),
    ...(withPhoto ? { images: [image] } : {}),
    ...(inputs.style ? { style: random.pick(STYLES) } : {}),
    ...(inputs.model ? { model_uuid: modelUuid } : {}),
    ...(inputs.video && random.chance(0.7) ? { duration: random.pick(VIDEO_DURATIONS) } : {}),
    ...(inputs.video && random.chance(0.5) ? { aspect: random.pick(VIDEO_ASPECTS) } : {}),
    ...(inputs.aspect === 'image' && random.chance(0.5) ? { aspect: random.pick(IMAGE_ASPECTS) } : {}),
    ...(inputs.count && random.chance(0.6) ? { count: random.pick([1, 2, 3, 4]) } : {}),
    ...(Object.keys(inputs.settings).length
      ? { settings: settingsFor(mode, image, (values) => random.pick(values)) }
      : {}),
  };
}

async function ledgerOf(userId: number) {
  return t.deps.db
    .select()
    .from(creditEntries)
    .where(and(eq(creditEntries.userId, userId), eq(creditEntries.kind, 'generation_charge')));
}

describe('the price shown, the price charged and the free-tier decision agree', () => {
  it(`for ${CASES} random requests of every mode and random people (seed ${SEED})`, async () => {
    const random = seeded(SEED);
    const seen = { accepted: 0, rateLimited: 0, insufficient: 0 };
    try {
      for (let i = 0; i < CASES; i++) {
        const person = drawPerson(random);
        const mode = GENERATION_MODES[i % GENERATION_MODES.length]!;
        const context = `case ${i} (seed ${SEED}): ${JSON.stringify({ mode, person })}`;
        t.setNow(person.now);
        const { userId, headers, image, modelUuid } = await setUp(person);
        const request = drawRequest(random, mode, image, modelUuid);
        const cookie = person.timezoneOffset === null ? {} : { cookie: `timezone=${person.timezoneOffset}` };
        const query = new URLSearchParams({ mode });
        if ('duration' in request && request.duration !== undefined)
          query.set('duration', String(request.duration));
        // Words to be spoken are quoted for their seconds of speech, as the form asks.
        if (modeDeclaration(mode).inputs.promptIs === 'speech')
          query.set('duration', String(spokenSeconds({ prompt: request.prompt ?? '', ...request })));
        if ('count' in request && request.count !== undefined) query.set('count', String(request.count));
        if ('settings' in request && request.settings?.pack) query.set('pack', request.settings.pack);
        const pictures = picturesOf(request);

        const quoted = await t.app.inject({
          method: 'GET',
          url: `/api/generations/price/?${query}`,
          headers: { ...headers, ...cookie },
        });
        expect(quoted.statusCode, `${context} ${quoted.body}`).toBe(200);
        const quote = quoted.json() as { cost: number; balance: number; wait_seconds: number };
        expect(quote.balance, context).toBe(person.balance);
        expect(quote.wait_seconds, context).toBe(expectedWait(person));

        const created = await t.app.inject({
          method: 'POST',
          url: '/api/generations/',
          headers: { ...headers, ...cookie },
          payload: request,
        });
        const charges = await ledgerOf(userId);
        const made = await t.deps.db.select().from(generations).where(eq(generations.userId, userId));
        if (quote.wait_seconds > 0) {
          seen.rateLimited++;
          expect(created.statusCode, `${context} ${created.body}`).toBe(429);
          expect(created.json(), context).toMatchObject({
            code: 'generations.rate_limited',
            wait_seconds: quote.wait_seconds,
          });
        } else if (quote.cost > quote.balance) {
          seen.insufficient++;
          expect(created.statusCode, `${context} ${created.body}`).toBe(402);
          expect(created.json(), context).toMatchObject({
            code: 'credits.insufficient',
            required: quote.cost,
            balance: quote.balance,
          });
        } else {
          seen.accepted++;
          expect(created.statusCode, `${context} ${created.body}`).toBe(201);
          // The quote is the run's; each picture is charged its share, in its own entry.
          expect(created.json().cost * pictures, context).toBe(quote.cost);
          expect(
            charges.map((entry) => -entry.delta),
            context,
          ).toEqual(Array.from({ length: pictures }, () => quote.cost / pictures));
          expect(Math.min(...charges.map((entry) => entry.balanceAfter)), context).toBe(
            person.balance - quote.cost,
          );
          expect(made.length, context).toBe(person.past.length + pictures);
          continue;
        }
        // Refused: nothing charged, nothing made.
        expect(charges, context).toEqual([]);
        expect(made.length, context).toBe(person.past.length);
      }
    } finally {
      t.setNow(undefined);
    }
    // The draw reaches every outcome, so the property is not true only for lack of cases.
    expect(seen.accepted, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(seen.rateLimited, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(seen.insufficient, JSON.stringify(seen)).toBeGreaterThan(0);
  }, 60_000);
});

describe('the free tier’s day (mirra_free_tier)', () => {
  const at = (iso: string) => new Date(iso);
  const utcMidnight = at('2026-05-01T00:00:00Z');
  let userId: number;
  beforeAll(async () => {
    userId = (await createUser(t.deps.db, { email: `day-${randomUUID()}@example.com`, isActive: true })).id;
  });

  /** The day the function counts in for a request at `now` with this cookie, after `stored`. */
  async function dayStart(stored: Date | null, now: Date, offset: number): Promise<Date> {
    await t.deps.db.update(users).set({ freeDayStartedAt: stored }).where(eq(users.id, userId));
    const decision = await generationsRepository.freeTier(t.deps.db, userId, {
      now,
      localMidnight: startOfLocalDay(now, offset),
      dailyFree: DAILY_FREE,
      delaySeconds: DELAY_SECONDS,
    });
    return decision.dayStart;
  }

  it.each([
    ['no day counted yet: the local midnight', null, '2026-05-01T15:00:00Z', -180, '2026-04-30T21:00:00Z'],
    ['same offset, same day', utcMidnight, '2026-05-01T23:59:00Z', 0, '2026-05-01T00:00:00Z'],
    ['same offset, next local midnight', utcMidnight, '2026-05-02T00:00:00Z', 0, '2026-05-02T00:00:00Z'],
    [
      'days skipped: the latest local midnight',
      utcMidnight,
      '2026-05-04T10:00:00Z',
      0,
      '2026-05-04T00:00:00Z',
    ],
    // The bypass: a cookie whose midnight falls a minute ago, after the day's generations.
    [
      'an offset with a later midnight cannot start a day early',
      utcMidnight,
      '2026-05-01T15:02:00Z',
      -539,
      '2026-05-01T00:00:00Z',
    ],
    [
      'nor can one with an earlier midnight',
      utcMidnight,
      '2026-05-01T15:02:00Z',
      600,
      '2026-05-01T00:00:00Z',
    ],
    // Moving west (UTC → UTC−3): the day runs until the later local midnight.
    ['west: the old day goes on', utcMidnight, '2026-05-02T02:00:00Z', 180, '2026-05-01T00:00:00Z'],
    ['west: then the new local midnight', utcMidnight, '2026-05-02T03:00:00Z', 180, '2026-05-02T03:00:00Z'],
    // Moving east (UTC → UTC+3): the next local midnight is only 21 h on, so the day runs to the one after.
    [
      'east: a midnight 21 h on does not count',
      utcMidnight,
      '2026-05-02T02:00:00Z',
      -180,
      '2026-05-01T00:00:00Z',
    ],
    [
      'east: the first midnight 24 h on does',
      utcMidnight,
      '2026-05-02T21:00:00Z',
      -180,
      '2026-05-02T21:00:00Z',
    ],
  ])('%s', async (_name, stored, now, offset, expected) => {
    expect((await dayStart(stored, at(now), offset)).toISOString()).toBe(at(expected).toISOString());
  });

  it('starts each day at least 24 h after the one before, whatever the cookies', async () => {
    let previous: Date | null = null;
    const starts: number[] = [];
    // A request every 21 minutes for four days, each with a different offset; the accept records
    // the day it counted in, as here.
    for (let minute = 0; minute < 4 * 1440; minute += 21) {
      const now = new Date(utcMidnight.getTime() + minute * 60_000);
      const offset = ((minute * 37) % 1561) - 840;
      const start = await dayStart(previous, now, offset);
      expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
      if (start.getTime() !== previous?.getTime()) starts.push(start.getTime());
      previous = start;
    }
    expect(starts.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < starts.length; i++) {
      expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(24 * HOUR);
    }
  });
});
