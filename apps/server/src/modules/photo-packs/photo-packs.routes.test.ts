import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { GenerationStatus, LANGUAGES, type TPhotoPack, type TStaffPhotoPack } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineRegistry } from '../../engines/index.js';
import { creditEntries, models, photoPacks, staffAuditLog } from '../../shared/db/schema.js';
import type { FaceProfile } from '@mirra/imaging';
import { grantStaffRole } from '../admin/index.js';
import { createUploadFor } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { SEEDED_PHOTO_PACK } from '../../test/mode-env.js';
import { signedInPerson, type Person } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

// A photo pack is bought in one purchase and makes a picture per prompt, all of one album; staff
// make, price, translate, order and retire packs in the console.
let t: TestApp;
const engine = createScriptedEngine('test');
let admin: Person;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      ENGINE_PHOTO_PACK: 'test',
      PRICE_PACK_PICTURE: '4',
      GENERATION_MAX_ATTEMPTS: '1',
      // The scripted engine paints a plain colour, no person: the likeness check (tested in
      // fal.likeness.test.ts) would refund every picture.
      LIKENESS_THRESHOLD: '0',
    },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [engine]);
  admin = await signedInPerson(t, { credits: 0 });
  await grantStaffRole(t.deps, admin.user.email!, 'admin');
}, 120_000);
afterAll(() => t?.close());

/** A person with credits and a trained digital model (the model's training is not what is tested). */
async function buyer(credits: number) {
  const person = await signedInPerson(t, { credits });
  const [model] = await t.deps.db
    .insert(models)
    .values({
      userId: person.user.id,
      name: 'Me',
      category: 'female',
      status: GenerationStatus.COMPLETED,
      profile: { references: [{}] } as unknown as FaceProfile,
    })
    .returning();
  return { ...person, modelUuid: model!.uuid };
}

/** The file names of a ZIP's local headers, in order. */
function zipEntryNames(zip: Buffer): string[] {
  const header = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  const names: string[] = [];
  for (let at = zip.indexOf(header); at >= 0;) {
    const nameLength = zip.readUInt16LE(at + 26);
    const dataLength = zip.readUInt32LE(at + 18);
    names.push(zip.toString('utf8', at + 30, at + 30 + nameLength));
    at = zip.indexOf(header, at + 30 + nameLength + dataLength);
  }
  return names;
}

const texts = (word: string) =>
  Object.fromEntries(LANGUAGES.map((language) => [language, `${word} ${language}`]));

function packBody(overrides: Record<string, unknown> = {}) {
  return {
    titles: texts('Harbour'),
    descriptions: texts('Portraits by the sea'),
    emoji: '⚓',
    prompts: Array.from({ length: 20 }, (_, index) => `portrait by a harbour at dawn, take ${index + 1}`),
    aspect: '4:5',
    price: 100,
    position: 1,
    retired: false,
    reason: 'autumn collection',
    ...overrides,
  };
}

async function createPack(overrides: Record<string, unknown> = {}): Promise<TStaffPhotoPack> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/admin/photo_packs/',
    headers: admin.headers,
    payload: packBody(overrides),
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

const catalogue = async (language: string) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/photo_packs/?language=${language}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().results as TPhotoPack[];
};

describe('the photo pack catalogue', () => {
  it('offers the installation’s packs to anyone, in their language, each priced whole', async () => {
    const ru = await catalogue('ru');
    expect(ru.length).toBeGreaterThanOrEqual(8);
    const seeded = ru.find((pack) => pack.uuid === SEEDED_PHOTO_PACK.uuid)!;
    expect(seeded).toMatchObject({ title: 'Деловые портреты', pictures: 10, price: 10 * 4 });
    // Its emoji as art, the same on every device.
    expect(Buffer.from(seeded.emoji_art!.split(',')[1]!, 'base64').toString()).toMatch(
      /^<svg [^>]*viewBox="0 0 32 32">/,
    );
    expect((await catalogue('de')).find((pack) => pack.uuid === SEEDED_PHOTO_PACK.uuid)!.title).toBe(
      'Business-Porträts',
    );
  });

  it('staff add a pack with a cover and change it (audited); a retired pack leaves the catalogue', async () => {
    const cover = await createUploadFor(
      t,
      admin.user.id,
      await sharp({ create: { width: 1600, height: 2000, channels: 3, background: '#246' } })
        .jpeg()
        .toBuffer(),
    );
    const pack = await createPack({ position: 0, cover_upload: cover.uuid });
    expect(pack).toMatchObject({ effective_price: 100, retired: false });
    // The console draws the emoji as the catalogue does, not in a font that may lack it.
    expect(pack.emoji_art).toMatch(/^data:image\/svg\+xml/);
    const listed = await catalogue('kk');
    // Position 0 puts it first.
    expect(listed[0]).toMatchObject({ uuid: pack.uuid, title: 'Harbour kk', pictures: 20, price: 100 });
    expect(listed[0]!.cover_url).toBeTruthy();
    // The cover as stored (local disk or S3), a JPEG at the catalogue's width.
    const [row] = await t.deps.db.select().from(photoPacks).where(eq(photoPacks.uuid, pack.uuid));
    const coverFile = await t.deps.storage.get(row!.coverKey!);
    expect(coverFile?.contentType).toBe('image/jpeg');
    expect((await sharp(coverFile!.data).metadata()).width).toBe(720);

    // Unset price: the console's per-picture price times its pictures.
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/photo_packs/${pack.uuid}/`,
      headers: admin.headers,
      payload: packBody({ price: null, position: 0, reason: 'follow the picture price' }),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().effective_price).toBe(20 * 4);
    expect(changed.json().cover_url).not.toBeNull();
    const audit = await t.deps.db
      .select()
      .from(staffAuditLog)
      .where(and(eq(staffAuditLog.targetKind, 'photo pack'), eq(staffAuditLog.targetId, pack.uuid)));
    expect(audit.map((entry) => entry.action).sort()).toEqual(['photo_pack.change', 'photo_pack.create']);

    const retired = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/photo_packs/${pack.uuid}/`,
      headers: admin.headers,
      payload: packBody({ retired: true, reason: 'season over' }),
    });
    expect(retired.statusCode, retired.body).toBe(200);
    expect((await catalogue('en')).some((entry) => entry.uuid === pack.uuid)).toBe(false);
    // Nobody else sees the console's packs, as if the route did not exist.
    const person = await signedInPerson(t);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/admin/photo_packs/',
      headers: person.headers,
    });
    expect(refused.statusCode).toBe(404);
    // A pack must make 10 to 40 pictures, with a title in every language.
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/admin/photo_packs/',
      headers: admin.headers,
      payload: packBody({ prompts: ['one'], titles: { en: 'Only English' } }),
    });
    expect(short.statusCode, short.body).toBe(400);
    expect(short.json()).toMatchObject({
      prompts: ['A pack makes at least 10 pictures.'],
      titles: expect.arrayContaining(['This field may not be blank.']),
    });
  });
});

describe('buying a photo pack', () => {
  it('charges the pack’s price, makes a picture per prompt in one album, and refunds each failed picture its share', async () => {
    const pack = await createPack({ position: 5 });
    const person = await buyer(150);
    const quote = await t.app.inject({
      method: 'GET',
      url: `/api/generations/price/?mode=photo_pack&pack=${pack.uuid}`,
      headers: person.headers,
    });
    expect(quote.json()).toMatchObject({ cost: 100, balance: 150 });

    engine.calls.length = 0;
    // Pictures 4, 9 and 15 of the twenty fail at the engine for good.
    engine.script(
      ...Array.from({ length: 20 }, (_, index) =>
        [3, 8, 14].includes(index)
          ? ({ kind: 'throw', code: 'engine.failed', retryable: false } as const)
          : ({ kind: 'succeed' } as const),
      ),
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: person.headers,
      payload: {
        mode: 'photo_pack',
        model_uuid: person.modelUuid,
        settings: { pack: pack.uuid },
        prompt: 'ignored',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const first = created.json();
    expect(first.set).toEqual({ uuid: first.uuid, index: 0, size: 20 });
    await t.runJobs();
    // Each picture was made from its own prompt of the pack, in the pack's shape, with the model.
    expect(engine.calls.map((call) => call.prompt).sort()).toEqual([...pack.prompts].sort());
    expect(engine.calls.every((call) => call.aspect === '4:5')).toBe(true);

    const album = (
      await t.app.inject({
        method: 'GET',
        url: `/api/generations/?set=${first.uuid}`,
        headers: person.headers,
      })
    ).json().results as Array<{ uuid: string; status: number; cost: number; refunded: boolean }>;
    expect(album).toHaveLength(20);
    expect(album.filter((picture) => picture.status === 100)).toHaveLength(17);
    const ledger = await t.deps.db
      .select()
      .from(creditEntries)
      .where(eq(creditEntries.userId, person.user.id));
    const charged = -ledger
      .filter((entry) => entry.kind === 'generation_charge')
      .reduce((sum, e) => sum + e.delta, 0);
    const refunded = ledger
      .filter((entry) => entry.kind === 'generation_refund')
      .reduce((sum, e) => sum + e.delta, 0);
    expect(charged).toBe(100);
    // Three failed pictures of twenty: 3/20 of the price back.
    expect(refunded).toBe(15);
    expect(ledger.at(-1)!.balanceAfter).toBe(150 - 100 + 15);

    // "Download all": the seventeen finished pictures as one ZIP, by a link that needs no session.
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/generations/sets/${first.uuid}/archive/`,
      headers: person.headers,
    });
    expect(link.statusCode, link.body).toBe(200);
    const zip = await t.app.inject({ method: 'GET', url: link.json().url });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const names = zipEntryNames(zip.rawPayload);
    expect(names).toHaveLength(17);
    expect(names).not.toContain('mirra-04.png');
    // Somebody else's album is not theirs to download.
    const stranger = await signedInPerson(t);
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/generations/sets/${first.uuid}/archive/`,
      headers: stranger.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const forged = await t.app.inject({
      method: 'GET',
      url: link.json().url.replace(/.(?=&|$)/, (c: string) => (c === 'A' ? 'B' : 'A')),
    });
    expect(forged.statusCode).toBe(404);
  }, 120_000);

  it('refuses a retired pack and a balance short of the whole pack, charging nothing', async () => {
    const person = await buyer(39);
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: person.headers,
      payload: {
        mode: 'photo_pack',
        model_uuid: person.modelUuid,
        settings: { pack: SEEDED_PHOTO_PACK.uuid },
      },
    });
    expect(short.statusCode, short.body).toBe(402);
    expect(short.json()).toMatchObject({ code: 'credits.insufficient', required: 40, balance: 39 });

    const retired = await createPack({ retired: true });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/generations/',
      headers: person.headers,
      payload: { mode: 'photo_pack', model_uuid: person.modelUuid, settings: { pack: retired.uuid } },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'generations.pack_unavailable' });
    const charges = await t.deps.db
      .select()
      .from(creditEntries)
      .where(and(eq(creditEntries.userId, person.user.id), eq(creditEntries.kind, 'generation_charge')));
    expect(charges).toEqual([]);
  });
});
