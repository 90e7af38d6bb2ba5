/**
 * Prerenders the landing pages (src/prerender/landing-page.tsx) into dist/prerendered/<language>/
 * <path>index.html, after `vite build`: each is the built index.html with the page's first render
 * in place of the loading mark and the page's own styles linked in the head, so the first paint
 * needs the HTML and the CSS only. The server picks the file by the address and Accept-Language.
 *
 * The app is bundled for Node (Vite's SSR build, every package inlined so Preact stands in for
 * React as in the browser build) and rendered in a jsdom window: the output is the app's own DOM,
 * not a copy. No request leaves: `fetch` never answers, as for a visitor whose data is on its way.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import { build } from 'vite';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
const ORIGIN = 'http://localhost';

/** The route module each prerendered address shows, as the build manifest names it. */
const ROUTE_MODULES = { '/': 'src/app/routes/home.tsx', '/create/': 'src/app/routes/create.tsx' };

async function bundleForNode() {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-prerender-'));
  await build({
    root: webDir,
    configFile: path.join(webDir, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: {
      ssr: 'src/prerender/landing-page.tsx',
      outDir,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      minify: false,
    },
    ssr: { noExternal: true },
  });
  return outDir;
}

/** A browser-like global scope for the app's modules: jsdom's window, storage empty, no network. */
function installWindow() {
  const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', {
    url: `${ORIGIN}/`,
    pretendToBeVisual: true,
  });
  const { window } = dom;
  const names = [
    'window',
    'document',
    'navigator',
    'location',
    'history',
    'localStorage',
    'sessionStorage',
    'Node',
    'Element',
    'HTMLElement',
    'SVGElement',
    'Text',
    'DocumentFragment',
    'Event',
    'CustomEvent',
    'MutationObserver',
    'getComputedStyle',
    'requestAnimationFrame',
    'cancelAnimationFrame',
  ];
  for (const name of names) {
    Object.defineProperty(globalThis, name, { value: window[name], configurable: true, writable: true });
  }
  // Scroll restoration runs in effects; a document nobody sees has nothing to scroll.
  window.scrollTo = () => {};
  const never = () => new Promise(() => {});
  window.fetch = never;
  globalThis.fetch = never;
  window.matchMedia ??= (query) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
  });
  class Unobserved {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  for (const name of ['IntersectionObserver', 'ResizeObserver']) {
    window[name] ??= Unobserved;
    globalThis[name] ??= Unobserved;
  }
  return window;
}

/** The CSS files a route module needs (its own and its imports'), from Vite's build manifest. */
function stylesOf(manifest, key, seen = new Set()) {
  if (seen.has(key)) return [];
  seen.add(key);
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is missing from the build manifest`);
  return [...(entry.css ?? []), ...(entry.imports ?? []).flatMap((child) => stylesOf(manifest, child, seen))];
}

function escapeAttribute(value) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

export async function prerender() {
  const template = await readFile(path.join(distDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite', 'manifest.json'), 'utf8'));
  const rootPattern =
    /<div id="root">\s*<div class="boot"[^>]*><div class="boot__mark"><\/div><\/div>\s*<\/div>/;
  if (!rootPattern.test(template)) throw new Error('index.html has no #root with the loading mark');
  const entryStyles = new Set(Object.values(manifest).find((entry) => entry.isEntry)?.css ?? []);

  const bundleDir = await bundleForNode();
  try {
    const window = installWindow();
    const { renderLandingPage, LANGUAGES, PRERENDERED_PATHS } = await import(
      pathToFileURL(path.join(bundleDir, 'landing-page.js')).href
    );
    let written = 0;
    for (const address of PRERENDERED_PATHS) {
      const module = ROUTE_MODULES[address];
      if (!module) throw new Error(`no route module is known for ${address}`);
      const styles = [...new Set(stylesOf(manifest, module))].filter((file) => !entryStyles.has(file));
      const links = styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join('');
      for (const language of LANGUAGES) {
        window.history.replaceState(null, '', address);
        const body = await renderLandingPage(language);
        if (!body.includes('<main')) throw new Error(`${address} in ${language} rendered no page: ${body}`);
        const html = template
          .replace(
            /<html lang="[^"]*"/,
            `<html lang="${language}" data-prerendered="${escapeAttribute(language)}"`,
          )
          .replace('</head>', `${links}</head>`)
          .replace(rootPattern, () => `<div id="root" data-prerendered>${body}</div>`);
        const file = path.join(
          distDir,
          'prerendered',
          language,
          ...address.split('/').filter(Boolean),
          'index.html',
        );
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, html);
        written += 1;
      }
    }
    console.log(`prerendered ${written} landing pages`);
  } finally {
    await rm(bundleDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await prerender();
  // The app's modules keep timers of their own (queries, stores); the pages are written.
  process.exit(0);
}
