import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson } from '../../test/posts-factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  // Video only at fal, and fal has no key here: no engine can make a video.
  t = await createTestApp({ env: { ENGINE_VIDEO: 'fal' } });
});
afterAll(() => t.close());

describe('modes no engine can make', () => {
  it('are named in the public config, and get no price', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/api/config/' });
    // Try-on has no offline pipeline: with no provider configured for it, it is not offered either.
    expect(config.json().unavailable_modes).toEqual(['video', 'try_on']);

    const person = await signedInPerson(t);
    const quote = await t.app.inject({
      method: 'GET',
      url: '/api/generations/price/?mode=video&duration=5',
      headers: person.headers,
    });
    expect(quote.statusCode).toBe(400);
    expect(quote.json().code).toBe('generations.mode_unavailable');
  });
});

describe('the engine that will serve each mode', () => {
  it('is declared in the public config with what it can do, before anyone pays', async () => {
    const { engines, model_training } = (await t.app.inject({ method: 'GET', url: '/api/config/' })).json();
    // Only the offline engine here: every offered mode says so, and no AI is promised.
    expect(engines.simple).toEqual({ engine: 'local', ai: false, abilities: ['offline_drawing'] });
    expect(engines.editing).toEqual({ engine: 'local', ai: false, abilities: ['photo_edits'] });
    expect(engines.face_swap).toMatchObject({ engine: 'local', ai: false });
    expect(engines.video).toBeNull();
    expect(model_training).toEqual({ ai: false });

    const withProvider = await createTestApp({
      shareDatabaseWith: t,
      env: { ENGINE_SIMPLE: 'fal,local', FAL_KEY: 'fal-key-never-called' },
    });
    try {
      const config = (await withProvider.app.inject({ method: 'GET', url: '/api/config/' })).json();
      expect(config.engines.simple).toEqual({
        engine: 'fal',
        ai: true,
        abilities: ['ai_model', 'photorealistic'],
      });
      expect(config.engines.styling).toMatchObject({ engine: 'local', ai: false });
    } finally {
      await withProvider.close();
    }
  });
});
