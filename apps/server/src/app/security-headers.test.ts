import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, inlineScriptHashes, shouldSendHsts } from './security-headers.js';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('security headers', () => {
  it('hashes each inline script of a page exactly as written, and skips scripts with src', () => {
    const first = '\n  (function () { paint(); })();\n';
    const html =
      `<head><script>${first}</script><script type="module" crossorigin src="/assets/a.js"></script>` +
      `<SCRIPT type="text/javascript">b()</SCRIPT><script></script></head>`;
    expect(inlineScriptHashes(html)).toEqual([sha(first), sha('b()')]);
  });

  it('never lets inline or foreign scripts run, and names Google only when it signs people in', () => {
    const without = contentSecurityPolicy({
      inlineScriptHashes: ["'sha256-x'"],
      isGoogleSignInEnabled: false,
    });
    expect(without['script-src']).toEqual(["'self'", "'sha256-x'"]);
    expect(without['connect-src']).toEqual(["'self'"]);
    expect(without['frame-ancestors']).toEqual(['https://web.telegram.org', 'https://*.telegram.org']);
    const withGoogle = contentSecurityPolicy({ inlineScriptHashes: [], isGoogleSignInEnabled: true });
    expect(withGoogle['script-src']).toEqual(["'self'", 'https://accounts.google.com/gsi/client']);
    for (const policy of [without, withGoogle]) {
      expect(policy['script-src']).not.toContain("'unsafe-inline'");
      expect(policy['script-src']).not.toContain("'unsafe-eval'");
    }
  });

  it('lets the web app send error reports to its DSN’s origin, and nowhere else', () => {
    const policy = contentSecurityPolicy({
      inlineScriptHashes: [],
      isGoogleSignInEnabled: false,
      errorReportingDsn: 'https://publickey@o1.ingest.sentry.io/42',
    });
    expect(policy['connect-src']).toEqual(["'self'", 'https://o1.ingest.sentry.io']);
  });

  it.each([
    ['auto', 'http', false],
    ['auto', 'https', true],
    ['on', 'http', true],
    ['off', 'https', false],
  ] as const)('HSTS=%s over %s: sent %s', (mode, protocol, sent) => {
    expect(shouldSendHsts(mode, protocol)).toBe(sent);
  });
});
