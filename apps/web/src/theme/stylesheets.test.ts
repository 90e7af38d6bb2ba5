import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The stylesheet rules: colours come only from tokens.css (telegram.css maps Telegram's palette
// onto them, with our values as fallbacks), and global.css holds base, layout and the shared
// components, never a feature's or a page's own styles.
const src = path.resolve(import.meta.dirname, '..');
const TOKEN_SHEETS = new Set(['theme/tokens.css', 'theme/telegram.css']);
const GLOBAL_MAX_LINES = 1750;
/** Blocks a feature or page sheet refines on top of the shared ones global.css defines. */
const SHARED_BLOCKS = new Set([
  'app-header',
  'balance-card',
  'btn',
  'dropzone',
  'faq',
  'feature-list',
  'gen-grid',
  'is-active',
  'link',
  'list',
  'perk-list',
  'result-actions',
  'sign-in',
  'stat',
  'tips',
]);

function sheets(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'lint-fixtures' ? [] : sheets(file);
    return entry.name.endsWith('.css') ? [path.relative(src, file).split(path.sep).join('/')] : [];
  });
}

const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '');

/** Declaration values (what follows `property:` up to `;` or `}`), where colours are written. */
function declarationValues(css: string): string[] {
  return [...withoutComments(css).matchAll(/[{;]\s*(--?[\w-]+|[a-z-]+)\s*:\s*([^;{}]+)/g)].map((m) => m[2]!);
}

const NAMED =
  /(?<![\w-])(white|black|red|green|blue|yellow|orange|purple|pink|gray|grey|silver|navy|teal|aqua|lime|maroon|olive|fuchsia)(?![\w-])/i;
const FUNCTION = /\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/gi;

/** Raw colour literals in a value: hex, named colours, and colour functions with a literal channel. */
export function rawColours(value: string): string[] {
  const found: string[] = [];
  for (const hex of value.match(/#[0-9a-f]{3,8}\b/gi) ?? []) found.push(hex);
  const named = value.match(NAMED);
  if (named) found.push(named[0]);
  for (const fn of value.matchAll(FUNCTION)) {
    // The call's arguments, to its closing parenthesis.
    let depth = 0;
    let end = fn.index + fn[0].length - 1;
    for (; end < value.length; end++) {
      if (value[end] === '(') depth++;
      else if (value[end] === ')' && --depth === 0) break;
    }
    const args = value.slice(fn.index + fn[0].length, end);
    // A channel made of tokens (var(--x), even with a numeric fallback) is a token use.
    let bare = args;
    while (/var\([^()]*\)/.test(bare)) bare = bare.replace(/var\([^()]*\)/g, '');
    if (/\d/.test(bare)) found.push(value.slice(fn.index, end + 1));
  }
  return found;
}

/** Block names (a class before its __element or --modifier) that a sheet's selectors use. */
function blocks(css: string): Set<string> {
  const selectors = [...withoutComments(css).matchAll(/([^{}]+)\{/g)]
    .map((m) => m[1]!)
    .filter((s) => !s.trim().startsWith('@'));
  return new Set(
    selectors.flatMap((s) => [...s.matchAll(/\.([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.split(/__|--/)[0]!)),
  );
}

describe('stylesheets', () => {
  const all = sheets();
  const read = (file: string) => readFileSync(path.join(src, file), 'utf8');

  it('finds raw colours the way the rule means them', () => {
    expect(rawColours('0 0 0 1px #fff')).toEqual(['#fff']);
    expect(rawColours('linear-gradient(red, transparent)')).toEqual(['red']);
    expect(rawColours('rgba(0, 0, 0, 0.5)')).toEqual(['rgba(0, 0, 0, 0.5)']);
    expect(rawColours('hsl(var(--avatar-hue, 270) var(--avatar-from))')).toEqual([]);
    expect(rawColours('var(--color-white) currentColor transparent')).toEqual([]);
    expect(rawColours('nowrap')).toEqual([]);
  });

  it('take colours only from tokens outside tokens.css and telegram.css', () => {
    const offenders = all
      .filter((file) => !TOKEN_SHEETS.has(file))
      .flatMap((file) =>
        declarationValues(read(file)).flatMap((v) => rawColours(v).map((c) => `${file}: ${c}`)),
      );
    expect(offenders).toEqual([]);
  });

  it('use only variables that a sheet defines (or Telegram provides, --tg-*)', () => {
    const css = all.map((file) => withoutComments(read(file))).join('\n');
    const defined = new Set([...css.matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]!));
    // Set on elements from the components (style={{ '--avatar-hue': … }}).
    const runtime = new Set(['--avatar-hue']);
    const undefinedVars = [...new Set([...css.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]!))].filter(
      (name) => !defined.has(name) && !runtime.has(name) && !name.startsWith('--tg-'),
    );
    expect(undefinedVars).toEqual([]);
  });

  it('keep global.css to base, layout and shared components', () => {
    const global = read('theme/global.css');
    expect(global.split('\n').length).toBeLessThanOrEqual(GLOBAL_MAX_LINES);
    const globalBlocks = blocks(global);
    const featureSheets = all.filter((f) => /^(features\/[^/]+|app\/routes)\/[^/]+\.css$/.test(f));
    expect(featureSheets.length).toBeGreaterThan(5);
    const misplaced = featureSheets.flatMap((file) =>
      [...blocks(read(file))]
        .filter((block) => globalBlocks.has(block) && !SHARED_BLOCKS.has(block))
        .map((block) => `.${block} (${file})`),
    );
    expect(misplaced).toEqual([]);
  });
});
