import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createScriptedEngine } from '../../test/fake-engines.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { createEngineRegistry } from '../../engines/index.js';

/** Live progress over server-sent events, through a real listening socket. */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGINE_SIMPLE: 'test', FREE_DAILY_PHOTOS: '100' } });
  t.deps.engines = createEngineRegistry(t.deps.config, [createScriptedEngine('test')]);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t.close());

async function readEvents(
  response: Response,
  until: (events: Array<{ status: number; progress: number }>) => boolean,
) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: Array<{ status: number; progress: number }> = [];
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let split;
    while ((split = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, split);
      buffer = buffer.slice(split + 2);
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (block.includes('event: status') && data) events.push(JSON.parse(data.slice(6)));
    }
  }
  return { events, reader };
}

describe('generation events', () => {
  it('streams status and progress from NEW to COMPLETED, then ends the stream', async () => {
    await t.deps.notifications!.isListening();
    const user = await createActiveUser(t);
    await grantWelcomeCredits(t.deps.db, user.id, 10);
    const { access } = await login(t, user.email!, user.password);
    const created = (
      await t.app.inject({
        method: 'POST',
        url: '/api/generations/',
        headers: bearer(access),
        payload: { mode: 'simple', prompt: 'a kite' },
      })
    ).json();

    const response = await fetch(`${base}/api/generations/${created.uuid}/events/`, {
      headers: bearer(access),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reading = readEvents(response, (events) =>
      events.some((e) => e.status === GenerationStatus.COMPLETED),
    );
    // Give the stream a moment to subscribe, then let the worker run the job.
    await new Promise((r) => setTimeout(r, 100));
    await t.runJobs();
    const { events, reader } = await reading;
    expect(events[0]).toEqual({
      uuid: created.uuid,
      status: GenerationStatus.NEW,
      progress: 0,
      // Not in any provider's queue (the local engine has none).
      queue_position: null,
    });
    expect(events.map((e) => e.status)).toContain(GenerationStatus.IN_PROGRESS);
    // The engine reports 25 then 75. Each change is NOTIFYed, but a listener that reconnects under load
    // re-reads the row instead (its current progress), so the stream promises a live value between
    // 0 and 100, in order, not every value.
    const progress = events.map((e) => e.progress);
    expect(progress.some((p) => p === 25 || p === 75)).toBe(true);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ status: GenerationStatus.COMPLETED, progress: 100 });
    expect((await reader.read()).done).toBe(true);
  });

  it('answers 404 for someone else’s generation and 401 without credentials', async () => {
    const owner = await createActiveUser(t);
    await grantWelcomeCredits(t.deps.db, owner.id, 10);
    const stranger = await createActiveUser(t);
    const ownerTokens = await login(t, owner.email!, owner.password);
    const strangerTokens = await login(t, stranger.email!, stranger.password);
    const created = (
      await t.app.inject({
        method: 'POST',
        url: '/api/generations/',
        headers: bearer(ownerTokens.access),
        payload: { mode: 'simple', prompt: 'x' },
      })
    ).json();
    expect(
      (
        await fetch(`${base}/api/generations/${created.uuid}/events/`, {
          headers: bearer(strangerTokens.access),
        })
      ).status,
    ).toBe(404);
    expect((await fetch(`${base}/api/generations/${created.uuid}/events/`)).status).toBe(401);
  });
});
