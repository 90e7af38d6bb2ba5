import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The repository's web import rules, applied to a small source tree of deliberately bad imports
// (lint-fixtures/src: main.tsx, app/, components/, lib/, features/alpha and beta) that normal
// lint skips.
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const fixtureSrc = 'apps/web/src/test/lint-fixtures/src';

type Messages = Record<string, Array<{ ruleId: string | null; line: number }>>;

async function lintFixtures(): Promise<Messages> {
  const configModule = (await import(pathToFileURL(path.join(repoRoot, 'eslint.config.js')).href)) as {
    webImportRules: (src: string) => Linter.Config[];
  };
  const eslint = new ESLint({
    cwd: repoRoot,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser as Linter.Parser } },
      ...configModule.webImportRules(fixtureSrc),
    ],
  });
  const results = await eslint.lintFiles([`${fixtureSrc}/**/*.{ts,tsx}`]);
  return Object.fromEntries(
    results.map((result) => [
      path.relative(path.join(repoRoot, fixtureSrc), result.filePath).split(path.sep).join('/'),
      result.messages.map(({ ruleId, line }) => ({ ruleId, line })),
    ]),
  );
}

describe('web import rules (eslint.config.js)', () => {
  let messages: Messages;
  beforeAll(async () => {
    messages = await lintFixtures();
  }, 120_000);

  const rulesOf = (file: string) => (messages[file] ?? []).map((m) => m.ruleId);

  it("refuses another feature's internals, past its index.ts", () => {
    expect(rulesOf('features/beta/imports-internal.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it("refuses app/'s reaching past a feature's index.ts", () => {
    expect(rulesOf('app/imports-internal.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('refuses an import of app/ from a feature or from lib/', () => {
    expect(rulesOf('features/beta/imports-app.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('lib/imports-app.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('refuses a feature import from components/ or lib/, even through the index', () => {
    expect(rulesOf('components/imports-feature.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('lib/imports-feature.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('refuses a page that makes requests itself (a feature API or the client)', () => {
    expect(messages['app/routes/calls-api.ts']).toEqual([
      { ruleId: 'no-restricted-syntax', line: 2 },
      { ruleId: 'no-restricted-imports', line: 3 },
    ]);
    expect(rulesOf('app/routes/uses-hook.ts')).toEqual([]);
  });

  it('refuses an import cycle', () => {
    expect(rulesOf('features/beta/cycle-a.ts')).toContain('import-x/no-cycle');
    expect(rulesOf('features/beta/cycle-b.ts')).toContain('import-x/no-cycle');
  });

  it('accepts faces (index.ts, *.lazy.ts), shared parts, the entry point and tests', () => {
    expect(rulesOf('main.tsx')).toEqual([]);
    expect(rulesOf('app/root.ts')).toEqual([]);
    expect(rulesOf('features/beta/uses-faces.ts')).toEqual([]);
    expect(rulesOf('features/alpha/alpha-internal.ts')).toEqual([]);
    expect(rulesOf('features/beta/internal.test.ts')).toEqual([]);
  });
});
