/**
 * Builds the web app and prints every JavaScript chunk's gzipped size, then the first route's total
 * (the entry, everything it imports statically, the home page chunk and the English catalogue)
 * against the 120 KB budget as a ratio. Run: `node --import tsx bench/web-bundle-size.ts`
 * (`--no-build` reuses apps/web/dist).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 120;
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

if (!process.argv.includes('--no-build')) {
  execFileSync('npm', ['run', 'build', '-w', '@mirra/web'], { cwd: root, stdio: 'inherit' });
}

const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const gzipped = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);

/** A chunk and everything it imports statically (what the browser must fetch before running it). */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}

const byKey = (predicate: (key: string, chunk: ManifestChunk) => boolean) => {
  const found = Object.entries(manifest).find(([key, chunk]) => predicate(key, chunk));
  if (!found) throw new Error('chunk not found in the manifest');
  return found[0];
};

const entry = byKey((_, chunk) => Boolean(chunk.isEntry));
const home = byKey((key) => key.endsWith('src/app/routes/home.tsx'));
const english = byKey((key) => key.endsWith('src/locales/en.json'));
const firstRoute = new Set([...closure(entry), ...closure(home), ...closure(english)]);

const rows = Object.entries(manifest)
  .filter(([, chunk]) => chunk.file.endsWith('.js'))
  .map(([key, chunk]) => ({ key, file: chunk.file, gz: gzipped(chunk.file), first: firstRoute.has(key) }))
  .sort((a, b) => b.gz - a.gz);

console.log('gzip KB  first  chunk');
for (const row of rows)
  console.log(`${kb(row.gz)}  ${row.first ? '  *  ' : '     '}  ${row.file}  (${row.key})`);

const total = rows.filter((row) => row.first).reduce((sum, row) => sum + row.gz, 0);
console.log(
  `\nfirst route (/ in English): ${kb(total).trim()} KB gzipped of ${BUDGET_KB} KB budget, ratio ${(total / 1024 / BUDGET_KB).toFixed(3)}`,
);
