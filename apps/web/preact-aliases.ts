import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

/**
 * The app is written against React's API and runs on Preact's compatibility layer, which is a
 * tenth of react-dom's size: the first page downloads the app, not the renderer. Vite and vitest
 * both resolve React through these aliases, so the tests run on what users run.
 */
export const preactAliases: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  // React's own useSyncExternalStore shim for React < 18 is not needed: compat has the hook.
  {
    find: /^use-sync-external-store\/shim$/,
    replacement: fileURLToPath(new URL('./src/lib/use-sync-external-store-shim.ts', import.meta.url)),
  },
];
