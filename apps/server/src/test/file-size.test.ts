import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A source file over this many lines holds more than one concern: split it by concern instead.
const MAX_LINES = 600;

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const roots = ['apps', 'packages'];

// Folders that hold no source of ours (dependencies, builds) or deliberately bad test material.
const skippedDirs = new Set(['node_modules', 'dist', 'build', 'coverage', 'test-results', 'lint-fixtures']);

// The files allowed over the limit, each for a reason that splitting would not serve:
const allowed = [
  // Fakes of third-party APIs: one file mirrors one provider's whole surface for the tests.
  /^apps\/server\/src\/fakes\/[^/]+\.fake\.ts$/,
  // The schema index: re-exports every module's tables for drizzle-kit, migrations and tests.
  /^apps\/server\/src\/shared\/db\/schema\.ts$/,
  // Phrase data of the offline prompt helper: a table of words, no logic.
  /^apps\/server\/src\/modules\/prompt-helper\/prompt-helper\.phrases\.ts$/,
];

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);
const isSource = (file: string) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return skippedDirs.has(entry.name) ? [] : sourceFiles(relative);
    return entry.isFile() && isSource(entry.name) && !isTest(entry.name) ? [relative] : [];
  });
}

const lineCount = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8').split('\n').length - 1;

describe('source file size', () => {
  it(`keeps every non-test source in apps/ and packages/ at most ${MAX_LINES} lines, but the allow-list`, () => {
    const files = roots.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .filter((file) => !allowed.some((pattern) => pattern.test(file)))
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
