import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENERATION_MODES } from './modes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCES = ['apps/server/src', 'apps/web/src', 'packages/contracts/src', 'packages/imaging/src'];
/** Tests, fakes of providers and test helpers may name modes as much as they like. */
const NOT_SOURCE = /(\.test\.tsx?|\.e2e\.ts)$|\/fakes\/|\/test\//;
/**
 * A mode's id as a quoted literal may appear in its declaration and in a few places that are about
 * that one mode on purpose (a button that opens it, ComfyUI's workflow file names); everything
 * else reads the declaration. More than this many files means a mode is spreading again.
 */
const MAX_FILES_PER_MODE = 4;
/** Code that deals with generation modes names their type, their list or their declarations. */
const MODE_CODE = /TGenerationMode|GENERATION_MODES|MODE_DECLARATIONS|modeDeclaration|\bmode\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !NOT_SOURCE.test(full.replaceAll(path.sep, '/')) ? [full] : [];
  });
}

describe('a mode is declared once', () => {
  const files = SOURCES.flatMap((dir) => sourceFiles(path.join(ROOT, dir))).map((file) => ({
    file: path.relative(ROOT, file),
    text: readFileSync(file, 'utf8'),
  }));

  it('reads the source it checks', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.some((f) => f.file.endsWith('modes.ts'))).toBe(true);
  });

  /*
   * Only files about generation modes count: some modes are named by common words ('background',
   * 'upscale') that image code uses for its own things (an edit step, a progress stage).
   */
  const aboutModes = files.filter((f) => MODE_CODE.test(f.text));
  for (const mode of GENERATION_MODES) {
    it(`names '${mode}' in at most ${MAX_FILES_PER_MODE} source files`, () => {
      const literal = new RegExp(`['"]${mode}['"]`);
      // The declarations and the rules that read them are one place, split in two files for size.
      const naming = [
        ...new Set(
          aboutModes
            .filter((f) => literal.test(f.text))
            .map((f) => f.file.replace(/mode-declarations\.ts$/, 'modes.ts')),
        ),
      ];
      expect(naming.length, naming.join('\n')).toBeLessThanOrEqual(MAX_FILES_PER_MODE);
    });
  }
});
