import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every text colour reads on every surface it is set on, in both themes: at least 4.5:1 (WCAG AA
// for body text), the faint notes (hints, time notes, the offline notes) included.
const tokens = readFileSync(path.resolve(import.meta.dirname, 'tokens.css'), 'utf8');

/** The custom properties of the block whose selector list ends with `selector`. */
function block(selector: string): Record<string, string> {
  const start = tokens.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block in tokens.css`);
  const body = tokens.slice(start, tokens.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2]!.trim()]));
}

function luminance(hex: string): number {
  const value = hex.replace('#', '');
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = parseInt(value.slice(i, i + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

const TEXTS = ['--color-text', '--color-text-muted', '--color-text-faint'];
const SURFACES = ['--color-bg', '--color-bg-elevated', '--color-surface', '--color-surface-2'];

describe.each([
  ['dark', ":root[data-theme='dark']"],
  ['light', ":root[data-theme='light']"],
])('the %s theme', (_name, selector) => {
  const theme = block(selector);
  it.each(TEXTS)('%s reads at 4.5:1 or more on every surface', (text) => {
    for (const surface of SURFACES) {
      expect(theme[text], text).toMatch(/^#[0-9a-f]{6}$/i);
      expect(contrast(theme[text]!, theme[surface]!), `${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
