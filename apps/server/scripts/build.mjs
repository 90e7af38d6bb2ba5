// Bundles the server into dist/ with esbuild: our code and @mirra/contracts (TypeScript source)
// inline, every npm dependency left as an import so native and data-carrying packages load as usual.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
await rm(path.join(root, 'dist'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  // All beside each other in dist/: the imaging pool finds its thread entry next to the chunks.
  entryPoints: {
    'main.api': 'src/main.api.ts',
    'main.worker': 'src/main.worker.ts',
    'imaging.thread': 'src/app/imaging.thread.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalise-npm-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@mirra/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
console.log('server built into apps/server/dist');
