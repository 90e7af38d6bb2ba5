/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the built web app, at the
 * highest levels: the server then sends the smaller copy the browser accepts without compressing
 * on each request. A copy is kept only when it is smaller than the file itself.
 */
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm)$/;
// Below this a response fits in the first packets anyway; headers would eat the saving.
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // dist/ssr is the server's page renderer: never sent to a browser.
    if (entry.isDirectory() && entry.name === 'ssr') continue;
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

export async function precompress(dir) {
  let original = 0;
  let compressed = 0;
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const { size } = await stat(file);
    if (size < MIN_BYTES) continue;
    const body = await readFile(file);
    const copies = {
      '.br': await brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: size,
        },
      }),
      '.gz': await gz(body, { level: 9 }),
    };
    for (const [suffix, copy] of Object.entries(copies)) {
      if (copy.length < size) await writeFile(file + suffix, copy);
      else await unlink(file + suffix).catch(() => {});
    }
    original += size;
    compressed += copies['.br'].length;
  }
  return { original, compressed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = path.resolve(process.argv[2] ?? 'dist');
  const { original, compressed } = await precompress(dir);
  console.log(
    `precompressed ${(original / 1024).toFixed(1)} KB of text to ${(compressed / 1024).toFixed(1)} KB (brotli)`,
  );
}
