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

/** Each landing page's files the main chunk does not already bring: code, texts, then styles. */
function landingPageFiles(bundle: Rollup.OutputBundle | undefined, base: string): Record<string, string[]> {
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
  return files;
}

/** Where index.html wants the app's start script (after the prerendered-page check, before the styles). */
const START_MARKER = '<!-- mirra:start-app -->';

/**
 * One inline script starts the app, in place of Vite's module script and preload links:
 * - It fetches the main chunk with everything it imports, the English catalogue (every language
 *   falls back to it, yet the app would ask for it only once running) and the landing page's own
 *   code, styles and texts for this address (the app would ask for those a round trip later).
 * - It sits before the stylesheets, so nothing waits for them.
 * - On a prerendered page (`<html data-prerendered>`) it waits for the first contentful paint (the
 *   browser's paint entry, or the next frame where there is none; 3 s at most): the page shows as
 *   soon as the HTML and CSS are in, and the app's first render then reuses its elements. A tab
 *   opened in the background, which paints nothing, starts at once.
 */
function startApp(): Plugin {
  let base = '/';
  return {
    name: 'mirra:start-app',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!html.includes(START_MARKER)) throw new Error(`index.html has no ${START_MARKER}`);
        const entryTag = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
        if (!entryTag) throw new Error('index.html has no entry script to start the app with');
        const modules: string[] = [];
        const withoutPreloads = html.replace(
          /<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g,
          (_tag, href: string) => {
            modules.push(href);
            return '';
          },
        );
        modules.push(`${base}${builtChunk(bundle, 'src/locales/en.json').fileName}`);
        const script = `(function () {
  var entry = ${JSON.stringify(entryTag[1])};
  var modules = ${JSON.stringify(modules)};
  var pages = ${JSON.stringify(landingPageFiles(bundle, base))};
  var started = false;
  function add(href) {
    var link = document.createElement('link');
    if (/\\.css$/.test(href)) {
      link.rel = 'preload';
      link.as = 'style';
    } else {
      link.rel = 'modulepreload';
    }
    // The app then asks for each file in CORS mode (modules, and the stylesheet links Vite adds with
    // crossorigin); a preload in another credentials mode is not reused: fetched twice, and warned about.
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
  function start() {
    if (started) return;
    started = true;
    var path = location.pathname;
    var page = pages['=' + path];
    for (var key in pages) if (!page && key.charAt(0) !== '=' && path.indexOf(key) === 0) page = pages[key];
    modules.concat(page || []).forEach(add);
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.appendChild(script);
  }
  if (!document.documentElement.hasAttribute('data-prerendered') || document.visibilityState === 'hidden') {
    return start();
  }
  document.addEventListener('visibilitychange', start, { once: true });
  var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (types.indexOf('paint') < 0) {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
    return;
  }
  // A frame can begin without painting yet: the paint entry says the content is on screen.
  new PerformanceObserver(function (list, observer) {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    setTimeout(start, 0);
  }).observe({ type: 'paint', buffered: true });
  // Whatever happens to that paint, the app starts.
  setTimeout(start, 3000);
})();`;
        return withoutPreloads
          .replace(entryTag[0], '')
          .replace(START_MARKER, () => `<script>${script}</script>`);
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
  plugins: [react(), startApp(), routeDeclarationsForBrowser()],
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
