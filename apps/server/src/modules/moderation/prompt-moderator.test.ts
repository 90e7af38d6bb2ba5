import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai.fake.js';
import { createLogger } from '../../shared/logger.js';
import { createOpenAiModerationClient, OPENAI_MODERATION_MODEL } from './openai-moderation.client.js';
import { createPromptModerator } from './prompt-moderator.js';

let fake: OpenAiFake;
beforeAll(async () => {
  fake = await startOpenAiFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const logger = createLogger('silent');
const moderatorWith = (options: { apiKey?: string; timeoutMs?: number } = {}) =>
  createPromptModerator({
    openai: createOpenAiModerationClient({
      baseUrl: fake.url,
      apiKey: options.apiKey ?? fake.apiKey!,
      timeoutMs: options.timeoutMs ?? 2000,
    }),
    logger,
  });

describe('the prompt moderator with OpenAI configured', () => {
  it('asks OpenAI with omni-moderation-latest and the key, and passes what it passes', async () => {
    const verdict = await moderatorWith().check('a red fox in a snowy forest');
    expect(verdict).toEqual({ flagged: false, categories: [] });
    expect(fake.requests).toEqual([
      {
        endpoint: 'moderations',
        path: '/v1/moderations',
        contentType: 'application/json',
        authorization: `Bearer ${fake.apiKey}`,
        body: { model: OPENAI_MODERATION_MODEL, input: 'a red fox in a snowy forest' },
      },
    ]);
  });

  it('refuses what OpenAI flags though the word list has nothing against it', async () => {
    const verdict = await moderatorWith().check('a man about to kill his neighbour');
    expect(verdict).toEqual({ flagged: true, categories: ['violence'] });
  });

  it('refuses what the word list catches without spending a request', async () => {
    const verdict = await moderatorWith().check('порно на пляже');
    expect(verdict).toEqual({ flagged: true, categories: ['sexual'] });
    expect(fake.requests).toHaveLength(0);
  });

  it('lets an empty prompt through without asking', async () => {
    expect(await moderatorWith().check('   ')).toEqual({ flagged: false, categories: [] });
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['a server error', [{ status: 500 }]],
    ['rate limiting', [{ status: 429 }]],
    ['a slow answer', [{ delayMs: 1500 }]],
  ])('falls back to the word list on %s', async (_name, steps) => {
    fake.script('moderations', steps);
    const moderator = moderatorWith({ timeoutMs: 300 });
    // OpenAI would flag "kill"; unreachable, the word list alone decides and passes it.
    expect(await moderator.check('a man about to kill his neighbour')).toEqual({
      flagged: false,
      categories: [],
    });
    // …and still refuses what it knows.
    expect(await moderator.check('n4ked woman')).toEqual({ flagged: true, categories: ['sexual'] });
  });

  it('falls back to the word list when the key is refused', async () => {
    const moderator = moderatorWith({ apiKey: 'sk-wrong' });
    expect(await moderator.check('a man about to kill his neighbour')).toEqual({
      flagged: false,
      categories: [],
    });
    expect(fake.requests[0]?.authorization).toBe('Bearer sk-wrong');
  });
});

describe('the prompt moderator without OpenAI', () => {
  it('uses the word list alone', async () => {
    const moderator = createPromptModerator({ openai: null, logger });
    expect(await moderator.check('a man about to kill his neighbour')).toEqual({
      flagged: false,
      categories: [],
    });
    expect(await moderator.check('секс')).toEqual({ flagged: true, categories: ['sexual'] });
  });
});
