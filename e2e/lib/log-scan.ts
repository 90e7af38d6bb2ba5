/**
 * What must never appear in a server's log: the secrets the run configured, sign-in tokens,
 * Telegram init data, passwords, pictures and face data. e2e/run.ts scans every server log of
 * a run with it after the specs and fails the run on the first finding.
 */
export interface LogFinding {
  file: string;
  line: number;
  what: string;
  text: string;
}

/** Shapes that are secret or personal whatever their value. */
const SHAPES: Array<{ what: string; pattern: RegExp }> = [
  // A JWT: base64url header `{"` … , payload, signature.
  { what: 'a JWT', pattern: /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
  { what: 'a Bearer token', pattern: /Bearer\s+[A-Za-z0-9._~+/-]{16,}/ },
  // Telegram init data: a query string signed with `hash=` (hex) or `signature=` (base64url).
  { what: 'Telegram init data', pattern: /(?:^|[&?"'\s])hash=[0-9a-f]{64}\b/ },
  { what: 'Telegram init data', pattern: /(?:^|[&?"'\s])signature=[A-Za-z0-9_-]{40,}/ },
  { what: 'Telegram init data', pattern: /(?:^|[&?"'\s])(?:user|auth_date)=[^&\s"]+&/ },
  { what: 'image data', pattern: /data:image\/[a-z+]+;base64,/i },
  // PNG, JPEG and WebP files in base64 (their magic bytes) of some length.
  { what: 'image data', pattern: /(?:iVBORw0KGgo|\/9j\/[0-9A-Za-z+/]|UklGR)[0-9A-Za-z+/]{60,}/ },
  // Face landmarks or embeddings: a long list of numbers (30 or more).
  { what: 'face data', pattern: /\[\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?){29,}\s*\]/ },
  { what: 'face data', pattern: /"(?:landmarks|descriptor|embedding)"\s*:\s*\[/ },
];

/**
 * Every line of `text` holding one of `known` (secrets and passwords of the run; values shorter
 * than 8 characters are ignored, they would match by chance) or one of the secret shapes.
 */
export function scanLog(file: string, text: string, known: readonly string[]): LogFinding[] {
  const secrets = [...new Set(known.filter((value) => value.length >= 8))];
  const findings: LogFinding[] = [];
  text.split('\n').forEach((content, index) => {
    const secret = secrets.find((value) => content.includes(value));
    const shape = secret ? undefined : SHAPES.find(({ pattern }) => pattern.test(content));
    if (secret || shape) {
      findings.push({
        file,
        line: index + 1,
        what: secret ? 'a secret or password of the run' : shape!.what,
        // The finding names the line; the secret itself is not printed again.
        text: (secret ? content.split(secret).join('<redacted>') : content).slice(0, 500),
      });
    }
  });
  return findings;
}
