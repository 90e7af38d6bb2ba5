import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSentryFake, type SentryFake } from '../../apps/server/src/fakes/sentry.fake.js';
import { openBrowser } from '../lib/browser.js';
import { startDedicatedServer, type DedicatedServer } from '../lib/server.js';

/**
 * The web app's uncaught errors reach a Sentry-compatible ingest (the fake) named by
 * SENTRY_DSN_WEB through the official browser SDK: as envelopes, with the release and the route
 * pattern, and nothing personal.
 */
let sentry: SentryFake;
let server: DedicatedServer;
let using: { restore(): void };

beforeAll(async () => {
  sentry = await startSentryFake();
  server = await startDedicatedServer({ SENTRY_DSN_WEB: sentry.dsn, SENTRY_RELEASE: 'mirra@e2e-web' });
  using = server.use();
}, 240_000);

afterAll(async () => {
  using?.restore();
  await server?.stop();
  await sentry?.close();
});

describe('web error reports', () => {
  it('an uncaught error and an unhandled rejection reach the DSN with release and route, without e-mails or tokens', async () => {
    const s = await openBrowser('phone', { alsoAllow: [new URL(sentry.dsn).origin] });
    try {
      const page = s.page;
      await page.goto(new URL('/posts/top/?ref_note=e2e-secret-query', server.baseUrl).toString());
      await page.waitForFunction(() => document.documentElement.classList.contains('is-ready'));
      // Once the reporter has loaded (idle after the first paint), errors go out at once; before,
      // they are kept and sent when it loads: both end in the same reports.
      await page.evaluate(() => {
        setTimeout(() => {
          throw new TypeError('broke for ada@example.com with eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3In0.c2ln');
        });
        void Promise.reject(new Error('rejected at /api/x/?refresh=e2e-refresh-secret'));
      });
      const events = await sentry.waitForEvents(2, 20_000);
      const byType = Object.fromEntries(
        events.map((event) => {
          const [value] = (event.exception as { values: Array<{ type: string; value: string }> }).values;
          return [value!.type, { event, value: value!.value }];
        }),
      );
      expect(byType.TypeError!.value).toBe('broke for [email] with [token]');
      expect(byType.Error!.value).toBe('rejected at /api/x/?refresh=[redacted]');
      for (const { event } of Object.values(byType)) {
        expect(event).toMatchObject({
          platform: 'javascript',
          release: 'mirra@e2e-web',
          tags: { route: '/posts/:type/' },
          request: { url: new URL('/posts/top/', server.baseUrl).toString() },
          // Sent by the official SDK, which must not let the ingest infer the user's IP address.
          sdk: { name: 'sentry.javascript.browser', settings: { infer_ip: 'never' } },
        });
      }
      const raw = sentry.envelopes.map((envelope) => envelope.raw).join('\n');
      for (const secret of [
        'ada@example.com',
        'eyJhbGciOiJIUzI1NiJ9',
        'e2e-refresh-secret',
        'e2e-secret-query',
      ])
        expect(raw).not.toContain(secret);
      expect(s.errors.filter((error) => /Content Security Policy/i.test(error))).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
