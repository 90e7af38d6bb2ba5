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
    expect(config.json().unavailable_modes).toEqual(['video']);

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
