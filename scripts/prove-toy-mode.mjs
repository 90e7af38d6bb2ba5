#!/usr/bin/env node
/**
 * Proves that a new generation mode is a small change: in a throw-away worktree of HEAD it adds a
 * toy mode, "mirror" (a photo flipped left to right, offline), the way docs/ADDING_A_MODE.md says,
 * then counts the non-test files that changed (the six translation files of one catalogue count as
 * one), type-checks every project and runs a test that makes a mirror through the HTTP API on the
 * local engine and sees it offered in /api/config/ with its price. Exits non-zero when the mode
 * needs more than MAX_FILES files, or does not work.
 *
 *   npm run prove:toy-mode
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_FILES = 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tree = mkdtempSync(path.join(tmpdir(), 'mirra-toy-mode-'));
// Readable by all: as root, the tests' embedded PostgreSQL runs as an unprivileged user.
chmodSync(tree, 0o755);
const run = (command, args, cwd = tree) =>
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** Inserts `text` before the first occurrence of `anchor` in a file of the worktree. */
function insertBefore(file, anchor, text) {
  const full = path.join(tree, file);
  const source = readFileSync(full, 'utf8');
  if (!source.includes(anchor)) throw new Error(`${file} no longer has: ${anchor}`);
  writeFileSync(full, source.replace(anchor, text + anchor));
}

const LANGUAGES = {
  en: ['Mirror', 'Your photo, flipped left to right.', 'No description needed', 'Upload the photo to mirror'],
  ru: [
    'Зеркало',
    'Ваше фото, отражённое слева направо.',
    'Описание не нужно',
    'Загрузите фото для отражения',
  ],
  de: ['Spiegel', 'Ihr Foto, seitenverkehrt.', 'Keine Beschreibung nötig', 'Foto zum Spiegeln hochladen'],
  uk: [
    'Дзеркало',
    'Ваше фото, віддзеркалене зліва направо.',
    'Опис не потрібен',
    'Завантажте фото для віддзеркалення',
  ],
  kk: ['Айна', 'Фотоңыз солдан оңға аударылған.', 'Сипаттама керек емес', 'Айналдыратын фотоны жүктеңіз'],
  az: ['Güzgü', 'Fotonuz soldan sağa çevrilmiş.', 'Təsvir lazım deyil', 'Güzgüləmək üçün foto yükləyin'],
};

const TOY_TEST = `import sharp from 'sharp';
import { GenerationStatus } from '@mirra/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grantWelcomeCredits } from '../credits/credits.usecases.js';
import { bearer, createActiveUser, createUploadFor, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PRICE_MIRROR: '3' } });
});
afterAll(() => t.close());

it('a toy mode added by its declaration, its pipeline and its texts works end to end', { timeout: 120_000 }, async () => {
  const config = (await t.app.inject({ method: 'GET', url: '/api/config/' })).json();
  expect(config.unavailable_modes).not.toContain('mirror');
  expect(config.engines.mirror).toMatchObject({ engine: 'local', ai: false });
  const user = await createActiveUser(t);
  await grantWelcomeCredits(t.deps.db, user.id, 20);
  const headers = bearer((await login(t, user.email!, user.password)).access);
  const price = await t.app.inject({ method: 'GET', url: '/api/generations/price/?mode=mirror', headers });
  expect(price.json().cost).toBe(3);
  const refused = await t.app.inject({ method: 'POST', url: '/api/generations/', headers, payload: { mode: 'mirror' } });
  expect(refused.statusCode).toBe(400);
  const left = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#000' } })
    .composite([{ input: await sharp({ create: { width: 32, height: 32, channels: 3, background: '#fff' } }).png().toBuffer(), left: 0, top: 0 }])
    .png()
    .toBuffer();
  const upload = await createUploadFor(t, user.id, left);
  const created = await t.app.inject({ method: 'POST', url: '/api/generations/', headers, payload: { mode: 'mirror', images: [upload.uuid] } });
  expect(created.statusCode, created.body).toBe(201);
  expect(created.json().cost).toBe(3);
  await t.runJobs();
  const done = (await t.app.inject({ method: 'GET', url: \`/api/generations/\${created.json().uuid}/\`, headers })).json();
  expect(done.status, done.error_detail).toBe(GenerationStatus.COMPLETED);
  const file = await t.fetchMedia(done.result.download_url);
  const { data, info } = await sharp(file.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number) => data[(Math.floor(info.height / 2) * info.width + x) * info.channels];
  // White was on the left: mirrored, it is on the right.
  expect(at(2)).toBeLessThan(60);
  expect(at(info.width - 3)).toBeGreaterThan(200);
});
`;

let failed = false;
try {
  run('git', ['worktree', 'add', '--detach', tree, 'HEAD'], root);
  for (const dir of ['', 'apps/server', 'apps/web', 'e2e', 'packages/contracts', 'packages/imaging']) {
    const from = path.join(root, dir, 'node_modules');
    // Hard links: the worktree's own workspace links (@mirra/*) point into the worktree.
    if (existsSync(from)) run('cp', ['-al', from, path.join(tree, dir, 'node_modules')], root);
  }

  // 1. The declaration.
  insertBefore(
    'packages/contracts/src/mode-declarations.ts',
    '/** Every mode, in the order the app lists them. */',
    `/** Toy: the photo mirrored. */
const mirror = {
  id: 'mirror',
  result: 'image',
  createCard: true,
  pictureAction: false,
  inputs: {
    prompt: 'optional',
    promptIgnoredWithPhoto: true,
    promptIs: 'edit',
    photo: 'required',
    style: false,
    model: false,
    video: false,
    aspect: 'none',
    count: false,
    settings: {},
  },
  jobs: { withPhoto: 'photo_edit', withoutPhoto: null },
  price: { key: 'mirror', per: 'run', default: 5 },
  freeTier: true,
} as const satisfies ModeDeclaration;

`,
  );
  const modes = path.join(tree, 'packages/contracts/src/mode-declarations.ts');
  writeFileSync(
    modes,
    readFileSync(modes, 'utf8').replace(
      /(export const MODE_DECLARATIONS = \[[^\]]*)\] as const;/,
      '$1  mirror,\n] as const;',
    ),
  );
  // 2. Its local pipeline.
  insertBefore(
    'apps/server/src/engines/local/local.render.ts',
    '};\n\n/** What the offline engine does for each mode it serves',
    `  mirror: {
    capability: { ai: false, abilities: ['photo_edits'] },
    run: async (request, _context, progress) => {
      const photo = await decode(singleImage(request, 'Mirror'), STYLING_MAX_SIDE);
      const { data, width, height, channels } = photo;
      const flipped = Buffer.alloc(data.length);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const from = (y * width + x) * channels;
          data.copy(flipped, (y * width + width - 1 - x) * channels, from, from + channels);
        }
      }
      return finish({ ...photo, data: flipped }, 'Mirrored by the offline local engine', [], progress);
    },
  },
`,
  );
  // 3. Its provider jobs: photo_edit is one every provider already runs, so none.
  // 4. Its texts, six languages of the root catalogue.
  for (const [language, [title, description, placeholder, photo]] of Object.entries(LANGUAGES)) {
    const file = path.join(tree, 'apps/web/src/locales', `${language}.json`);
    const catalogue = JSON.parse(readFileSync(file, 'utf8'));
    catalogue.modes.mirror = { title, description, placeholder, photo };
    writeFileSync(file, `${JSON.stringify(catalogue, null, 2)}\n`);
  }
  // 5. Its tests (not counted).
  writeFileSync(path.join(tree, 'apps/server/src/modules/generations/toy-mode.test.ts'), TOY_TEST);
  // A test that stores media is also listed for the S3 pass (the storage guard insists).
  const s3Files = path.join(tree, 'apps/server/src/test/s3-files.json');
  const listed = JSON.parse(readFileSync(s3Files, 'utf8'));
  writeFileSync(
    s3Files,
    `${JSON.stringify([...listed, 'src/modules/generations/toy-mode.test.ts'], null, 2)}\n`,
  );

  const changed = run('git', ['status', '--porcelain'])
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3))
    .filter((file) => !/\.test\.tsx?$|\/src\/test\//.test(file));
  const counted = new Set(
    changed.map((file) =>
      file.replace(/locales\/(?:([\w-]+)\/)?[a-z]{2}\.json$/, 'locales/$1<language>.json'),
    ),
  );
  console.log(`Files changed for the toy mode (tests apart):\n  ${changed.join('\n  ')}`);
  console.log(`Counted (one catalogue's languages as one): ${counted.size} of at most ${MAX_FILES}`);
  if (counted.size > MAX_FILES) failed = true;

  for (const project of ['packages/contracts', 'apps/server', 'apps/web']) {
    console.log(`tsc -p ${project}`);
    run('npx', ['tsc', '-p', project, '--noEmit']);
  }
  console.log('server: the toy mode through the HTTP API');
  run('npx', ['vitest', 'run', 'src/modules/generations/toy-mode.test.ts'], path.join(tree, 'apps/server'));
  console.log('web: every catalogue has the mode texts in every language');
  run('npx', ['vitest', 'run', 'src/locales'], path.join(tree, 'apps/web'));
} catch (error) {
  failed = true;
  console.error(String(error.stdout ?? ''), String(error.stderr ?? ''), error.message);
} finally {
  run('git', ['worktree', 'remove', '--force', tree], root);
  rmSync(tree, { recursive: true, force: true });
}
console.log(failed ? 'FAILED: a new mode is not a small change' : 'OK: a new mode is a small change');
process.exit(failed ? 1 : 0);
