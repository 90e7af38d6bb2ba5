import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_REPLY, startOpenAiFake, type OpenAiFake } from '../../fakes/openai.fake.js';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let fake: OpenAiFake;
let withModel: TestApp;
let offline: TestApp;
let auth: Record<string, string>;
let offlineAuth: Record<string, string>;

beforeAll(async () => {
  fake = await startOpenAiFake();
  [withModel, offline] = await Promise.all([
    createTestApp({
      env: {
        PROMPT_HELPER_BASE_URL: fake.chatBaseUrl,
        PROMPT_HELPER_API_KEY: fake.apiKey!,
        PROMPT_HELPER_MODEL: 'fake-model-1',
        PROMPT_HELPER_TIMEOUT_SECONDS: '0.5',
        RATE_LIMIT_PROMPT_HELPER_PER_USER: '3',
        // Pictures go to a provider's generative model; editing stays with the offline engine.
        ENGINE_SIMPLE: 'fal,local',
        FAL_KEY: 'fal-key-never-called',
      },
    }),
    createTestApp(),
  ]);
  const user = await createActiveUser(withModel);
  auth = bearer((await login(withModel, user.email!, user.password)).access);
  const offlineUser = await createActiveUser(offline);
  offlineAuth = bearer((await login(offline, offlineUser.email!, offlineUser.password)).access);
});
afterAll(async () => {
  await Promise.all([withModel?.close(), offline?.close()]);
  await fake?.close();
});
beforeEach(async () => {
  fake.reset();
  // Each test starts with the helper's whole rate-limit window available.
  await withModel.deps.db.execute(`DELETE FROM rate_limit_counters WHERE key LIKE 'prompt-helper:%'`);
});

const ask = (t: TestApp, payload: unknown, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/prompt-helper/', payload: payload as object, headers });

describe('POST /api/prompt-helper/ with a model configured', () => {
  it('asks the OpenAI-compatible chat endpoint and answers its prompt as source llm', async () => {
    const response = await ask(withModel, { text: 'рыжий кот на крыше ночью', mode: 'simple' }, auth);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ prompt: DEFAULT_CHAT_REPLY, source: 'llm' });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ endpoint: 'chat', authorization: `Bearer ${fake.apiKey}` });
    expect(request!.body).toMatchObject({
      model: 'fake-model-1',
      messages: [
        { role: 'system', content: expect.stringMatching(/one vivid English prompt/) },
        { role: 'user', content: 'рыжий кот на крыше ночью' },
      ],
    });
  });

  it('cleans the answer (quotes, labels) before handing it out', async () => {
    fake.setChatReply('Prompt: "A ginger cat on a rooftop at night"');
    const response = await ask(withModel, { text: 'рыжий кот на крыше ночью' }, auth);
    expect(response.json()).toEqual({ prompt: 'A ginger cat on a rooftop at night', source: 'llm' });
  });

  it('asks for an editing instruction in the editing mode', async () => {
    fake.setChatReply('Blur the background and make it brighter');
    const response = await ask(withModel, { text: 'размой фон', mode: 'editing' }, auth);
    expect(response.json()).toEqual({ prompt: 'Blur the background and make it brighter', source: 'llm' });
    // The offline editor serves editing here: the model is told what it understands.
    expect(JSON.stringify(fake.requests[0]!.body)).toMatch(/instruction for an offline photo editor/);
  });

  it('asks for plain scene words, never photographic ones, when the offline engine will draw it', async () => {
    const response = await ask(offline, { text: 'кот', mode: 'simple' }, offlineAuth);
    expect(response.json().source).toBe('offline');
    const withLocal = await createTestApp({
      shareDatabaseWith: withModel,
      env: { PROMPT_HELPER_BASE_URL: fake.chatBaseUrl, PROMPT_HELPER_API_KEY: fake.apiKey! },
    });
    try {
      const user = await createActiveUser(withLocal);
      const headers = bearer((await login(withLocal, user.email!, user.password)).access);
      await ask(withLocal, { text: 'рыжий кот на крыше ночью', mode: 'simple' }, headers);
      const system = JSON.stringify(fake.requests[0]!.body);
      expect(system).toMatch(/offline engine that draws scenes/);
      expect(system).toMatch(/Never add photographic or quality words/);
    } finally {
      await withLocal.close();
    }
  });

  it.each([
    ['a server error', { status: 500 }],
    ['a rate limit', { status: 429 }],
    ['a timeout', { delayMs: 1500 }],
    ['an answer that is not English', { content: 'Рыжий кот на крыше ночью' }],
    ['an empty answer', { content: '' }],
  ])('falls back to the offline phrasebook on %s', async (_name, step) => {
    fake.script('chat', [step]);
    const response = await ask(withModel, { text: 'рыжий кот на крыше ночью' }, auth);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      prompt: 'Ginger cat on a rooftop, at night, photorealistic, highly detailed, sharp focus, 35mm photo',
      source: 'offline',
    });
  });

  it('limits how often one user may call it', async () => {
    for (let i = 0; i < 3; i++) expect((await ask(withModel, { text: 'кот' }, auth)).statusCode).toBe(200);
    const throttled = await ask(withModel, { text: 'кот' }, auth);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().code).toBe('common.throttled');
    expect(fake.requests).toHaveLength(3);
  });
});

describe('POST /api/prompt-helper/ without a model', () => {
  it('adds photographic words only for an engine that honours them', async () => {
    const wish = { text: 'рыжий кот на крыше ночью', mode: 'simple' };
    // Only the local engine (it draws offline, no AI): the scene's words and nothing it cannot do.
    const local = await ask(offline, wish, offlineAuth);
    expect(local.json()).toEqual({ prompt: 'Ginger cat on a rooftop, at night', source: 'offline' });
    // A provider's generative model serves the simple mode: the photographic words help it.
    fake.script('chat', [{ status: 500 }]);
    const provider = await ask(withModel, wish, auth);
    expect(provider.json().prompt).toMatch(/photorealistic.*35mm photo/);
  });

  it('answers from the offline phrasebook, saying so', async () => {
    const response = await ask(offline, { text: 'закат на море, в стиле аниме' }, offlineAuth);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      prompt: 'A scene, sunset over the sea, in anime style, highly detailed, vibrant colors',
      source: 'offline',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('needs a signed-in user', async () => {
    const response = await ask(offline, { text: 'кот' }, {});
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('auth.not_authenticated');
  });

  it('answers a blank or missing wish with a field error', async () => {
    for (const payload of [{ text: '   ' }, {}, { text: 'кот', mode: 'nonsense' }]) {
      const response = await ask(offline, payload, offlineAuth);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('common.validation');
    }
    expect((await ask(offline, { text: '   ' }, offlineAuth)).json()).toEqual({
      text: ['This field may not be blank.'],
      code: 'common.validation',
    });
  });
});
