import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The repository's own rule set, applied to a small source tree of deliberately bad imports
// (lint-fixtures/src: app/, shared/, engines/, modules/alpha, beta, gamma; lint-fixtures/packages:
// a workspace package beside it) that normal lint skips.
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const fixtureRoot = 'apps/server/src/test/lint-fixtures';
const fixtureSrc = `${fixtureRoot}/src`;
const fixturePackages = `${fixtureRoot}/packages`;

type Messages = Record<string, Array<{ ruleId: string | null; line: number }>>;

async function lintFixtures(): Promise<Messages> {
  const configModule = (await import(pathToFileURL(path.join(repoRoot, 'eslint.config.js')).href)) as {
    serverImportRules: (src: string, tableReads?: Record<string, string[]>) => Linter.Config[];
    packageImportRules: (packages: string, apps: string) => Linter.Config[];
  };
  const eslint = new ESLint({
    cwd: repoRoot,
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } },
      ...configModule.serverImportRules(fixtureSrc, { beta: ['alpha'] }),
      ...configModule.packageImportRules(fixturePackages, fixtureSrc),
    ],
  });
  const results = await eslint.lintFiles([`${fixtureRoot}/**/*.ts`]);
  return Object.fromEntries(
    results.map((result) => [
      path.relative(path.join(repoRoot, fixtureSrc), result.filePath).split(path.sep).join('/'),
      result.messages.map(({ ruleId, line }) => ({ ruleId, line })),
    ]),
  );
}

describe('import rules (eslint.config.js)', () => {
  let messages: Messages;
  beforeAll(async () => {
    messages = await lintFixtures();
  }, 120_000);

  const rulesOf = (file: string) => (messages[file] ?? []).map((m) => m.ruleId);

  it('refuses an import of app/ from a module or from shared/', () => {
    expect(rulesOf('modules/alpha/imports-app.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('shared/imports-app.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('refuses a module import from shared/, even through the index', () => {
    expect(rulesOf('shared/imports-module.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it("refuses another module's repository, past its index", () => {
    expect(rulesOf('modules/beta/imports-repository.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it("refuses a module's index that exports its repository", () => {
    expect(messages['modules/gamma/index.ts']).toEqual([{ ruleId: 'no-restricted-syntax', line: 2 }]);
  });

  it('refuses an import cycle', () => {
    expect(rulesOf('modules/beta/cycle-a.ts')).toContain('import-x/no-cycle');
    expect(rulesOf('modules/beta/cycle-b.ts')).toContain('import-x/no-cycle');
  });

  it('accepts another module through its index, shared plumbing and own files', () => {
    const beta = (messages['modules/beta/beta.usecases.ts'] ?? []).filter(
      (m) => m.ruleId === 'import-x/no-restricted-paths',
    );
    expect(beta).toEqual([]);
    expect(rulesOf('modules/alpha/index.ts')).toEqual([]);
    expect(rulesOf('app/composition.ts')).toEqual([]);
  });

  it("keeps a module to its own tables, through its repositories, and another's only where table reads allow", () => {
    expect(rulesOf('modules/beta/imports-schema.repository.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('modules/gamma/reads-alpha.repository.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('modules/alpha/imports-tables.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('modules/alpha/imports-index.tables.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('modules/alpha/alpha.repository.ts')).toEqual([]);
    expect(rulesOf('modules/beta/beta.repository.ts')).toEqual([]);
    expect(rulesOf('modules/beta/beta.tables.ts')).toEqual([]);
    expect(rulesOf('shared/db/schema.ts')).toEqual([]);
  });

  it('refuses an engine that imports a module or the composition root', () => {
    expect(rulesOf('engines/imports-module.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('engines/imports-app.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it("refuses a module that reaches past engines/index.ts into an engine's files", () => {
    expect(rulesOf('modules/alpha/imports-engine-internals.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('accepts an engine on shared plumbing, the engine interface and a package', () => {
    expect(rulesOf('engines/local/local.engine.ts')).toEqual([]);
  });

  it('refuses a package that imports an app, a database, HTTP or fetch', () => {
    expect(rulesOf('../packages/pixels/src/imports-app.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesOf('../packages/pixels/src/imports-database.ts')).toEqual([
      'no-restricted-imports',
      'no-restricted-imports',
      'no-restricted-globals',
    ]);
    expect(rulesOf('../packages/pixels/src/index.ts')).toEqual([]);
  });
});
