import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { preactAliases } from './preact-aliases';

/** The built chunk of a source module (`src/…`, relative to apps/web); the build fails without it. */
function builtChunk(bundle: Rollup.OutputBundle | undefined, modulePath: string): Rollup.OutputChunk {
  const found = Object.values(bundle ?? {}).find(
    (output): output is Rollup.OutputChunk =>
      output.type === 'chunk' && (output.facadeModuleId ?? '').replace(/\\/g, '/').endsWith(`/${modulePath}`),
  );
  if (!found) throw new Error(`${modulePath} is missing from the build`);
  return found;
}

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
        const catalogue = builtChunk(bundle, 'src/locales/en.json');
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

/**
 * Where people arrive from outside (links, search, the Mini App's start): the page's code, styles
 * and texts. Keys are address prefixes (`/` and `/create/` exactly); values are the route module
 * and the extra catalogues its page loads (see route-table.ts).
 */
const LANDING_PAGES: Array<{ path: string; exact: boolean; module: string; catalogues: string[] }> = [
  { path: '/', exact: true, module: 'src/app/routes/home.tsx', catalogues: [] },
  { path: '/create/', exact: true, module: 'src/app/routes/create.tsx', catalogues: [] },
  { path: '/posts/', exact: false, module: 'src/app/routes/feed.tsx', catalogues: ['social'] },
  { path: '/welcome/', exact: true, module: 'src/app/routes/welcome.tsx', catalogues: [] },
];

/**
 * The first page's code is asked for only once the main chunk has run (`preloadPage`), one round
 * trip after it: an inline script in index.html adds preload links for the landing page at this
 * address while the HTML is parsed, so its files download alongside the main chunk. Files the
 * main chunk already preloads are left out.
 */
function preloadLandingPage(): Plugin {
  let base = '/';
  return {
    name: 'mirra:preload-landing-page',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((output) => output.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (fileName: string, into = new Set<string>()): Set<string> => {
          if (into.has(fileName)) return into;
          into.add(fileName);
          for (const imported of byFile.get(fileName)?.imports ?? []) closure(imported, into);
          return into;
        };
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('the entry chunk is missing from the build');
        const preloadedAlready = closure(entry.fileName);
        const files: Record<string, string[]> = {};
        for (const landing of LANDING_PAGES) {
          const page = builtChunk(bundle, landing.module);
          const code = [...closure(page.fileName)].filter((file) => !preloadedAlready.has(file));
          const styles = code.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]);
          const texts = landing.catalogues.map(
            (name) => builtChunk(bundle, `src/locales/${name}/en.json`).fileName,
          );
          files[(landing.exact ? '=' : '') + landing.path] = [...code, ...texts, ...styles].map(
            (file) => `${base}${file}`,
          );
        }
        const script = `(function () {
  var pages = ${JSON.stringify(files)};
  var path = location.pathname;
  var found = pages['=' + path];
  for (var key in pages) if (!found && key.charAt(0) !== '=' && path.indexOf(key) === 0) found = pages[key];
  (found || []).forEach(function (href) {
    var link = document.createElement('link');
    if (/\\.css$/.test(href)) {
      link.rel = 'preload';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
      link.crossOrigin = '';
    }
    link.href = href;
    document.head.appendChild(link);
  });
})();`;
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}

/** What the browser reads of a route declaration; the rest (docs, schema names, error codes) is for the server. */
const ROUTE_FIELDS_FOR_BROWSER = new Set(['method', 'path', 'requestKind', 'replyKind']);

interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/**
 * The route declarations of `@mirra/contracts` (`defineRoute({...})`) carry OpenAPI summaries,
 * descriptions and error lists the browser never reads; the build keeps only how to call each
 * route, so declaring an endpoint does not weigh on the first page.
 */
function routeDeclarationsForBrowser(): Plugin {
  return {
    name: 'mirra:route-declarations-for-browser',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]packages[\\/]contracts[\\/]src[\\/]routes[\\/][^\\/]+\.routes\.ts$/.test(id)) return null;
      const cuts: Array<[number, number]> = [];
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (!node || typeof node !== 'object') return;
        const n = node as AstNode;
        if (n.type === 'CallExpression') {
          const callee = n.callee as AstNode & { name?: string };
          const [spec] = n.arguments as AstNode[];
          if (
            callee.type === 'Identifier' &&
            callee.name === 'defineRoute' &&
            spec?.type === 'ObjectExpression'
          ) {
            const properties = spec.properties as Array<AstNode & { key?: AstNode & { name?: string } }>;
            properties.forEach((property, index) => {
              if (property.type !== 'Property' || ROUTE_FIELDS_FOR_BROWSER.has(property.key?.name ?? ''))
                return;
              const next = properties[index + 1];
              cuts.push([property.start, next ? next.start : property.end]);
            });
            return;
          }
        }
        for (const value of Object.values(n)) if (value && typeof value === 'object') visit(value);
      };
      visit(this.parse(code));
      if (cuts.length === 0) throw new Error(`${id}: no route declarations found to slim down`);
      let slim = code;
      for (const [start, end] of cuts.sort((a, b) => b[0] - a[0]))
        slim = slim.slice(0, start) + slim.slice(end);
      return { code: slim, map: null };
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), preloadFallbackCatalogue(), preloadLandingPage(), routeDeclarationsForBrowser()],
  resolve: {
    // react-router's package points bundlers at its development build (dev-only warnings kept in);
    // the production build is the same code with those compiled out.
    alias: [
      ...preactAliases,
      ...(command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
              ),
            },
          ]
        : []),
    ],
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    rollupOptions: {
      treeshake: {
        // The shared contracts only declare schemas and constants: the browser keeps the constants
        // it uses and none of the zod schemas it only takes types from. A feature's index.ts only
        // re-exports: a page that takes one thing from it does not pull in (or style) the rest. The
        // icon set's index.ts likewise: the first screen gets its icons without the other pages'.
        moduleSideEffects: (id: string) =>
          !/[\\/]packages[\\/]contracts[\\/]/.test(id) &&
          !/[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.ts$/.test(id) &&
          !/[\\/]src[\\/]components[\\/]ui[\\/]icons[\\/]index\.ts$/.test(id),
      },
    },
  },
}));
