import * as Sentry from '@sentry/browser';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_REPORTS_PER_PAGE,
  type ReportContext,
  scrub,
  scrubBreadcrumb,
  startSentry,
} from './sentry-browser';

const target = {
  dsn: 'https://abc123@errors.example.com/sentry/42',
  release: 'mirra@1.2.3',
  environment: 'production',
};
const context: ReportContext = {
  route: () => '/post/:uuid/',
  url: () => 'https://mirra.test/post/0000/',
  userId: () => 7,
};

/** An event as JSON off the wire, read field by field in the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON of any shape
type WireEvent = Record<string, any>;

interface Sent {
  url: string;
  raw: string;
  events: WireEvent[];
}

/** Starts the real SDK with a fetch that records what it would send. */
function startRecording(ctx: ReportContext = context) {
  const sent: Sent[] = [];
  const fakeFetch = (async (url: string, init: RequestInit) => {
    const raw = typeof init.body === 'string' ? init.body : new TextDecoder().decode(init.body as Uint8Array);
    const lines = raw.split('\n').filter(Boolean);
    const events: WireEvent[] = [];
    for (let i = 1; i + 1 < lines.length; i += 2) {
      const header = JSON.parse(lines[i]!) as { type: string };
      if (header.type === 'event') events.push(JSON.parse(lines[i + 1]!));
    }
    sent.push({ url: String(url), raw, events });
    return new Response('{}', { status: 200 });
  }) as unknown as typeof fetch;
  const report = startSentry(target, ctx, {
    transport: (options) => Sentry.makeFetchTransport(options, fakeFetch),
  });
  const flush = async () => {
    await Sentry.flush(2000);
    return sent.flatMap((s) => s.events);
  };
  return { report, sent, flush };
}

afterEach(async () => {
  await Sentry.close();
});

describe('web error reports (official Sentry SDK)', () => {
  it('posts an event to the DSN’s envelope endpoint with release, environment, route, user id and stack', async () => {
    const { report, sent, flush } = startRecording();
    const error = new TypeError('x is undefined');
    report(error);
    const [event] = await flush();
    const withEvent = sent.find((s) => s.events.length)!;
    const url = new URL(withEvent.url);
    expect(url.origin + url.pathname).toBe('https://errors.example.com/sentry/api/42/envelope/');
    expect(url.searchParams.get('sentry_key')).toBe('abc123');
    expect(event).toMatchObject({
      platform: 'javascript',
      level: 'error',
      release: 'mirra@1.2.3',
      environment: 'production',
      tags: { route: '/post/:uuid/' },
      user: { id: '7' },
      request: { url: 'https://mirra.test/post/0000/' },
      exception: { values: [{ type: 'TypeError', value: 'x is undefined' }] },
    });
    expect(event!.exception.values[0].stacktrace.frames.length).toBeGreaterThan(0);
    expect(event!.sdk.name).toBe('sentry.javascript.browser');
    expect(event!.user).toEqual({ id: '7' });
    expect(event!.request.headers).toEqual({ 'User-Agent': navigator.userAgent });
    // Sentry must not infer the user's IP address from the request.
    expect(event!.sdk.settings).toMatchObject({ infer_ip: 'never' });
    expect(event!.sdk.integrations).not.toContain('Console');
  });

  it('sends no e-mail address, token, query string, header or body, in events and breadcrumbs', async () => {
    const { report, sent, flush } = startRecording({
      ...context,
      url: () => 'https://mirra.test/reset/?token=secret-reset-token',
    });
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    Sentry.addBreadcrumb({
      category: 'fetch',
      message: `GET https://mirra.test/api/me/?access=${jwt}`,
      data: {
        url: 'https://mirra.test/api/auth/telegram/?tgWebAppData=query_id%3Dsecret-init-data',
        headers: { Authorization: `Bearer ${jwt}` },
        request_body: '{"password":"hunter2-password"}',
        status_code: 200,
      },
    });
    Sentry.setExtra('note', 'written by bob@example.org');
    report(
      new Error(
        `ada@example.com failed with Bearer ${jwt} at https://mirra.test/api/x/?token=t0kenq5&tgWebAppData=user%3D1 ` +
          'refresh=r3fr3shs3cr3t and key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      ),
    );
    const [event] = await flush();
    const raw = sent.map((s) => s.raw).join('\n');
    for (const secret of [
      'ada@example.com',
      'bob@example.org',
      jwt,
      'secret-reset-token',
      'secret-init-data',
      'hunter2-password',
      't0kenq5',
      'user%3D1',
      'r3fr3shs3cr3t',
      '9f86d0818',
      'Authorization',
    ])
      expect(raw).not.toContain(secret);
    expect(event!.exception.values[0].value).toBe(
      '[email] failed with Bearer [token] at https://mirra.test/api/x/ refresh=[redacted] and key [token]',
    );
    expect(event!.request).toEqual({
      url: 'https://mirra.test/reset/',
      headers: { 'User-Agent': navigator.userAgent },
    });
    expect(event!.breadcrumbs).toContainEqual(
      expect.objectContaining({
        category: 'fetch',
        message: 'GET https://mirra.test/api/me/',
        data: { url: 'https://mirra.test/api/auth/telegram/', status_code: 200 },
      }),
    );
    expect(scrub('https://mirra.test/a/?b=1#c')).toBe('https://mirra.test/a/#c');
  });

  it('reports each distinct error once and at most a page’s share, and no user when signed out', async () => {
    const { report, flush } = startRecording({ ...context, userId: () => null });
    report(new Error('same'));
    report(new Error('same'));
    report('a thrown string');
    for (let i = 0; i < MAX_REPORTS_PER_PAGE * 2; i++) report(new Error(`error ${i}`));
    const events = await flush();
    expect(events).toHaveLength(MAX_REPORTS_PER_PAGE);
    expect(events.filter((e) => e.exception.values[0].value === 'same')).toHaveLength(1);
    for (const event of events) expect(event.user).toBeUndefined();
  });

  it('drops bodies and headers from breadcrumbs', () => {
    expect(
      scrubBreadcrumb({
        category: 'xhr',
        data: { url: 'https://a.test/x?y=1', method: 'POST', body: 'photo-bytes', response_body_size: 5 },
      }),
    ).toEqual({ category: 'xhr', data: { url: 'https://a.test/x', method: 'POST' } });
  });
});
