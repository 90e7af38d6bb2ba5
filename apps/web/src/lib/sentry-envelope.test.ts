import { describe, expect, it, vi } from 'vitest';
import {
  type buildEvent,
  createEnvelopeSender,
  envelopeUrl,
  MAX_REPORTS_PER_PAGE,
  parseStack,
  scrub,
} from './sentry-envelope';

const target = {
  dsn: 'https://abc123@errors.example.com/sentry/42',
  release: 'mirra@1.2.3',
  environment: 'production',
  route: () => '/post/:uuid/',
  url: () => 'https://mirra.test/post/0000/',
  userId: () => 7,
};

function sentEnvelopes(send: ReturnType<typeof vi.fn>) {
  return send.mock.calls.map(([url, init]) => {
    const lines = String((init as RequestInit).body)
      .trimEnd()
      .split('\n');
    return {
      url: String(url),
      init: init as RequestInit,
      header: JSON.parse(lines[0]!) as Record<string, unknown>,
      item: JSON.parse(lines[1]!) as Record<string, unknown>,
      event: JSON.parse(lines[2]!) as ReturnType<typeof buildEvent>,
      raw: String((init as RequestInit).body),
    };
  });
}

describe('web error reports (Sentry envelopes)', () => {
  it('posts to the DSN’s envelope endpoint with its public key', () => {
    expect(envelopeUrl(target.dsn)).toBe(
      'https://errors.example.com/sentry/api/42/envelope/?sentry_key=abc123&sentry_version=7&sentry_client=mirra.web%2F1.0.0',
    );
    expect(() => envelopeUrl('https://errors.example.com/42')).toThrow();
  });

  it('sends one event per error with the release, environment, route, user id and stack, oldest frame first', () => {
    const send = vi.fn().mockResolvedValue(new Response('{}'));
    const report = createEnvelopeSender(target, send);
    const error = new TypeError('x is undefined');
    error.stack =
      'TypeError: x is undefined\n    at inner (https://mirra.test/assets/a.js:1:10)\n    at https://mirra.test/assets/b.js:2:20';
    report(error);
    const [sent] = sentEnvelopes(send);
    expect(sent!.url).toBe(envelopeUrl(target.dsn));
    expect(sent!.init).toMatchObject({ method: 'POST', credentials: 'omit', keepalive: true });
    expect(sent!.header).toMatchObject({ event_id: sent!.event.event_id, dsn: target.dsn });
    expect(sent!.item).toEqual({ type: 'event' });
    expect(sent!.event).toMatchObject({
      platform: 'javascript',
      level: 'error',
      release: 'mirra@1.2.3',
      environment: 'production',
      tags: { route: '/post/:uuid/' },
      user: { id: '7' },
      request: { url: 'https://mirra.test/post/0000/' },
      exception: {
        values: [
          {
            type: 'TypeError',
            value: 'x is undefined',
            stacktrace: {
              frames: [
                { filename: 'https://mirra.test/assets/b.js', lineno: 2, colno: 20 },
                { function: 'inner', filename: 'https://mirra.test/assets/a.js', lineno: 1, colno: 10 },
              ],
            },
          },
        ],
      },
    });
    expect(sent!.event.event_id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sends no e-mail address, token or query string', () => {
    const send = vi.fn().mockResolvedValue(new Response('{}'));
    const report = createEnvelopeSender(
      { ...target, url: () => 'https://mirra.test/reset/?token=secret-reset-token' },
      send,
    );
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    report(
      new Error(
        `ada@example.com failed with Bearer ${jwt} at https://mirra.test/api/x/?token=t0kenq5&tgWebAppData=user%3D1 ` +
          'refresh=r3fr3shs3cr3t and key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      ),
    );
    const [sent] = sentEnvelopes(send);
    for (const secret of [
      'ada@example.com',
      jwt,
      'secret-reset-token',
      't0kenq5',
      'user%3D1',
      'r3fr3shs3cr3t',
      '9f86d0818',
    ])
      expect(sent!.raw).not.toContain(secret);
    expect(sent!.event.exception.values[0]!.value).toBe(
      '[email] failed with Bearer [token] at https://mirra.test/api/x/ refresh=[redacted] and key [token]',
    );
    expect(scrub('https://mirra.test/a/?b=1#c')).toBe('https://mirra.test/a/#c');
  });

  it('reports each distinct error once and at most a page’s share, and swallows its own failures', async () => {
    const send = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    const report = createEnvelopeSender(target, send);
    report(new Error('same'));
    report(new Error('same'));
    report('a thrown string');
    report({ reason: 'an object' });
    expect(send).toHaveBeenCalledTimes(3);
    for (let i = 0; i < MAX_REPORTS_PER_PAGE * 2; i++) report(new Error(`error ${i}`));
    expect(send).toHaveBeenCalledTimes(MAX_REPORTS_PER_PAGE);
    const events = sentEnvelopes(send).map((sent) => sent.event.exception.values[0]);
    expect(events[1]).toMatchObject({ type: 'Error', value: 'a thrown string' });
    expect(events[2]).toMatchObject({ type: 'NonError', value: '{"reason":"an object"}' });
    await Promise.resolve();
  });

  it('reads Gecko and WebKit stacks too', () => {
    expect(
      parseStack('load@https://mirra.test/assets/c.js:3:4\n@https://mirra.test/assets/d.js:5:6'),
    ).toEqual([
      { filename: 'https://mirra.test/assets/d.js', lineno: 5, colno: 6, in_app: false },
      { function: 'load', filename: 'https://mirra.test/assets/c.js', lineno: 3, colno: 4, in_app: false },
    ]);
  });
});
