import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Every language loads the English catalogue before the first render (it is the fallback), yet the
 * app asks for it only once its main chunk has run: a modulepreload link in index.html fetches it
 * alongside the main chunk instead of one round trip later.
 */
function preloadFallbackCatalogue(): Plugin {
  let base = '/';
  return {
    name: 'mirra:preload-fallback-catalogue',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const catalogue = Object.values(bundle ?? {}).find(
          (output) =>
            output.type === 'chunk' && /[\\/]src[\\/]locales[\\/]en\.json$/.test(output.facadeModuleId ?? ''),
        );
        if (!catalogue) throw new Error('the English catalogue chunk is missing from the build');
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${catalogue.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadFallbackCatalogue()],
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    rollupOptions: {
      treeshake: {
        // The shared contracts only declare schemas and constants: the browser keeps the constants
        // it uses and none of the zod schemas it only takes types from. A feature's index.ts only
        // re-exports: a page that takes one thing from it does not pull in (or style) the rest.
        moduleSideEffects: (id: string) =>
          !/[\\/]packages[\\/]contracts[\\/]/.test(id) &&
          !/[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.ts$/.test(id),
      },
    },
  },
});
