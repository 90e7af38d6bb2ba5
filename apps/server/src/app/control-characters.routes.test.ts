import { fieldMessages } from '@mirra/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyError } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedEngine } from '../test/fake-engines.js';
import {
  completedGeneration,
  createSwitchableModerator,
  insertPost,
  signedInPerson,
  type Person,
} from '../test/posts-factories.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { createEngineRegistry } from '../engines/index.js';
import { toAppError } from './error-handler.js';

let t: TestApp;
let person: Person;
let generationUuid: string;
let postUuid: string;
let othersPostUuid: string;

beforeAll(async () => {
  t = await createTestApp({
    env: { ENGINE_SIMPLE: 'test', FREE_DAILY_PHOTOS: '1000' },
    overrides: { imageModerator: createSwitchableModerator() },
  });
  t.deps.engines = createEngineRegistry(t.deps.config, [createScriptedEngine('test')]);
  person = await signedInPerson(t);
  const other = await signedInPerson(t);
  generationUuid = (await completedGeneration(t, person, { mode: 'simple', prompt: 'a lighthouse' })).uuid;
  postUuid = (await insertPost(t, person.user.id)).uuid;
  othersPostUuid = (await insertPost(t, other.user.id)).uuid;
});
afterAll(() => t.close());

const NUL = 'a\u0000b';

describe('text with control characters is refused as a field error, never a 500', () => {
  const cases: Array<
    [string, 'POST' | 'PUT' | 'PATCH', () => string, (text: string) => object, string, boolean]
  > = [
    [
      'registration first name',
      'POST',
      () => '/api/users/',
      (x) => ({ email: 'nul@example.com', password: 'Correct-Horse-42', firstName: x }),
      'firstName',
      false,
    ],
    ['profile last name (PUT)', 'PUT', () => '/api/users/me/', (x) => ({ lastName: x }), 'lastName', true],
    [
      'profile first name (PATCH)',
      'PATCH',
      () => '/api/users/me/',
      (x) => ({ firstName: x }),
      'firstName',
      true,
    ],
    ['saved query string', 'POST', () => '/api/qs/', (x) => ({ qs: `a=1&b=${x}` }), 'qs', true],
    [
      'generation prompt',
      'POST',
      () => '/api/generations/',
      (x) => ({ mode: 'simple', prompt: x }),
      'prompt',
      true,
    ],
    ['model name', 'POST', () => '/api/models/', (x) => ({ name: x }), 'name', true],
    [
      'post title on publishing',
      'POST',
      () => '/api/posts/',
      (x) => ({ generation_uuid: generationUuid, title: x }),
      'title',
      true,
    ],
    ['post title on editing', 'PATCH', () => `/api/posts/${postUuid}/`, (x) => ({ title: x }), 'title', true],
    [
      'report comment',
      'POST',
      () => `/api/posts/${othersPostUuid}/report/`,
      (x) => ({ reason: 'spam', comment: x }),
      'comment',
      true,
    ],
  ];

  it.each(cases)('%s', async (_name, method, url, body, field, signedIn) => {
    for (const text of [NUL, 'bell\u0007', 'escape\u001B[31m']) {
      const response = await t.app.inject({
        method,
        url: url(),
        headers: signedIn ? person.headers : undefined,
        payload: body(text),
      });
      expect(response.statusCode, `${JSON.stringify(text)}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'common.validation',
        [field]: expect.arrayContaining([fieldMessages.controlCharacters]),
      });
    }
  });

  it('keeps line breaks in multi-line text (a report comment)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/posts/${othersPostUuid}/report/`,
      headers: person.headers,
      payload: { reason: 'other', comment: 'first line\nsecond line\twith a tab' },
    });
    expect(response.statusCode).toBeLessThan(300);
  });

  it('refuses a line break in one-line text (a post title)', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/posts/${postUuid}/`,
      headers: person.headers,
      payload: { title: 'two\nlines' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().title).toEqual([fieldMessages.controlCharacters]);
  });
});

describe('text PostgreSQL cannot store, should any reach it', () => {
  it('is answered as a 400 with its own code, not a 500', async () => {
    const error = await t.deps.db.execute(sql`SELECT ${NUL}::text AS value`).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).not.toBeNull();
    const answer = toAppError(error as FastifyError);
    expect(answer.statusCode).toBe(400);
    expect(answer.toBody()).toMatchObject({ code: 'common.invalid_text' });
  });
});
