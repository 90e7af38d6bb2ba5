import { loadTestFaces } from '@mirra/imaging/testing';
import { speechSecondsOf } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { multipartBody } from '../../test/images.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The talking photo over HTTP on the local engine: the price shown before is the price charged
 * for the speech's length, the text is said in its own language (not refused as non-English) and
 * moderated like a prompt, and a recorded voice is deleted once its generation is done.
 */
let t: TestApp;
let owner: { id: number; headers: Record<string, string> };
let portrait: string;
beforeAll(async () => {
  t = await createTestApp({
    env: { FREE_DAILY_PHOTOS: '1000', PRICE_TALKING_PHOTO_PER_SECOND: '2', GENERATION_MAX_ATTEMPTS: '1' },
  });
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 100);
  owner = { id: user.id, headers: bearer((await login(t, user.email!, user.password)).access) };
  portrait = (await createUploadFor(t, user.id, (await loadTestFaces()).graceHopper)).uuid;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const create = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/generations/', headers: owner.headers, payload });
const shown = async (uuid: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/generations/${uuid}/`, headers: owner.headers })).json();
const balance = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/credits/', headers: owner.headers })).json()
    .balance as number;

/** A 16-bit mono WAV: a tone whose loudness rises and falls like syllables. */
function recording(seconds: number): Buffer {
  const rate = 16000;
  const count = seconds * rate;
  const data = Buffer.alloc(44 + count * 2);
  data.write('RIFF', 0, 'ascii');
  data.writeUInt32LE(36 + count * 2, 4);
  data.write('WAVEfmt ', 8, 'ascii');
  data.writeUInt32LE(16, 16);
  data.writeUInt16LE(1, 20);
  data.writeUInt16LE(1, 22);
  data.writeUInt32LE(rate, 24);
  data.writeUInt32LE(rate * 2, 28);
  data.writeUInt16LE(2, 32);
  data.writeUInt16LE(16, 34);
  data.write('data', 36, 'ascii');
  data.writeUInt32LE(count * 2, 40);
  for (let i = 0; i < count; i++) {
    const syllables = Math.max(0, Math.sin((2 * Math.PI * 3 * i) / rate));
    data.writeInt16LE(Math.round(12000 * syllables * Math.sin((2 * Math.PI * 180 * i) / rate)), 44 + i * 2);
  }
  return data;
}

describe('talking photo on the local engine', () => {
  it('says a Russian text: the price shown first is charged for the speech’s seconds, and an MP4 of that length is made', async () => {
    const text = 'Привет! Как дела?';
    const seconds = speechSecondsOf(text, 'ru');
    const quote = await t.app.inject({
      method: 'GET',
      url: `/api/generations/price/?mode=talking_photo&duration=${seconds}`,
      headers: owner.headers,
    });
    expect(quote.json().cost).toBe(2 * seconds);
    const before = await balance();
    const created = await create({
      mode: 'talking_photo',
      prompt: text,
      images: [portrait],
      aspect: '1:1',
      settings: { language: 'ru' },
      // A length asked for is not what a text is charged for: its speech's is.
      duration: 15,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ prompt: text, duration: seconds, settings: { language: 'ru' } });
    expect(await balance()).toBe(before - 2 * seconds);
    await t.runJobs();
    const made = await shown(created.json().uuid);
    expect(made.status, JSON.stringify(made.failure ?? made)).toBe(100);
    expect(made.result.content_type).toBe('video/mp4');
    expect(made.result.notes.map((note: { code: string }) => note.code)).toContain('video.talking');
  }, 120_000);

  it('moderates the words as a prompt: refused before anything is charged', async () => {
    const original = t.deps.promptModerator;
    t.deps.promptModerator = {
      check: async (text) => ({ flagged: text.includes('ненависть'), categories: [] }),
    };
    try {
      const before = await balance();
      const refused = await create({
        mode: 'talking_photo',
        prompt: 'Сплошная ненависть',
        images: [portrait],
        settings: { language: 'ru' },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('generations.prompt_moderated');
      expect(await balance()).toBe(before);
    } finally {
      t.deps.promptModerator = original;
    }
  });

  it('says a recorded voice, and the recording is deleted once the video is made', async () => {
    const body = multipartBody([
      { name: 'file', filename: 'voice.wav', contentType: 'audio/wav', data: recording(2) },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/',
      payload: body.payload,
      headers: { ...owner.headers, ...body.headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const voice = uploaded.json() as { uuid: string; content_type: string };
    expect(voice.content_type).toBe('audio/wav');
    const row = await t.deps.db.query.uploads.findFirst({ where: (u, { eq }) => eq(u.uuid, voice.uuid) });
    const created = await create({
      mode: 'talking_photo',
      images: [portrait],
      aspect: '1:1',
      settings: { voice: voice.uuid },
      duration: 2,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().duration).toBe(2);
    await t.runJobs();
    const made = await shown(created.json().uuid);
    expect(made.status, JSON.stringify(made.failure ?? made)).toBe(100);
    expect(made.result.notes.map((note: { code: string }) => note.code)).toContain('video.talking_voice');
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/uploads/${voice.uuid}/`,
      headers: owner.headers,
    });
    expect(gone.statusCode).toBe(404);
    expect(await t.deps.storage.get(row!.storageKey)).toBeNull();
    // The portrait is the person's to keep.
    const kept = await t.app.inject({
      method: 'GET',
      url: `/api/uploads/${portrait}/`,
      headers: owner.headers,
    });
    expect(kept.statusCode).toBe(200);
  }, 120_000);
});
