/**
 * Pages that paint before the app's code has arrived, written after `vite build`:
 * - The app bundled for Node in dist/ssr/ (Vite's SSR build of src/prerender/render-page.tsx,
 *   every package inlined so Preact stands in for React as in the browser build), with the
 *   window it runs in (ssr-window.mjs) and the server's render worker (render-worker.mjs).
 * - The landing pages that need no data (`/`, `/create/`), rendered now in every language:
 *   dist/prerendered/<language>/<address>index.html.
 * - The template of each page the server renders with data (the feed), with `%LANGUAGE%` and
 *   `%PAGE%` to fill in: dist/ssr/pages/<address>index.html.
 * Each page is the built index.html with the page's first render in place of the loading mark,
 * `<html data-prerendered>` and the page's own styles linked in the head, so the first paint
 * needs the HTML and the CSS only. The output is the app's own DOM, not a copy.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { installWindow } from './ssr-window.mjs';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
const ssrDir = path.join(distDir, 'ssr');

/** The route module of each page written here, as the build manifest names it. */
const PAGES = {
  '/': { module: 'src/app/routes/home.tsx', prerender: true },
  '/create/': { module: 'src/app/routes/create.tsx', prerender: true },
  '/posts/top/': { module: 'src/app/routes/feed.tsx', prerender: false },
};

/** index.html's #root with the loading mark, which a page's first render replaces. */
const ROOT_WITH_LOADING_MARK =
  /<div id="root">\s*<div class="boot"[^>]*><div class="boot__mark"><\/div><\/div>\s*<\/div>/;

async function bundleForNode() {
  await build({
    root: webDir,
    configFile: path.join(webDir, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: {
      ssr: 'src/prerender/render-page.tsx',
      outDir: ssrDir,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      minify: false,
    },
    ssr: { noExternal: true },
  });
  for (const file of ['ssr-window.mjs', 'render-worker.mjs']) {
    await copyFile(path.join(import.meta.dirname, file), path.join(ssrDir, file));
  }
}

/** The CSS files a route module needs (its own and its imports'), from Vite's build manifest. */
function stylesOf(manifest, key, seen = new Set()) {
  if (seen.has(key)) return [];
  seen.add(key);
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is missing from the build manifest`);
  return [...(entry.css ?? []), ...(entry.imports ?? []).flatMap((child) => stylesOf(manifest, child, seen))];
}

/** index.html with a page's own stylesheets in the head. */
function templateFor(indexHtml, manifest, module) {
  const entryStyles = new Set(Object.values(manifest).find((entry) => entry.isEntry)?.css ?? []);
  const styles = [...new Set(stylesOf(manifest, module))].filter((file) => !entryStyles.has(file));
  const links = styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join('');
  return indexHtml.replace('</head>', `${links}</head>`);
}

/** A template filled with a page's first render in one language. */
function fillTemplate(template, language, body) {
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${language}" data-prerendered="${language}"`)
    .replace(ROOT_WITH_LOADING_MARK, () => `<div id="root" data-prerendered>${body}</div>`);
}

const fileOf = (dir, address) => path.join(dir, ...address.split('/').filter(Boolean), 'index.html');

async function prerender() {
  const indexHtml = await readFile(path.join(distDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite', 'manifest.json'), 'utf8'));
  if (!ROOT_WITH_LOADING_MARK.test(indexHtml))
    throw new Error('index.html has no #root with the loading mark');

  await bundleForNode();
  const window = installWindow();
  const { renderPage, LANGUAGES } = await import(pathToFileURL(path.join(ssrDir, 'render-page.js')).href);
  let written = 0;
  for (const [address, page] of Object.entries(PAGES)) {
    const template = templateFor(indexHtml, manifest, page.module);
    if (!page.prerender) {
      const file = fileOf(path.join(ssrDir, 'pages'), address);
      await mkdir(path.dirname(file), { recursive: true });
      // The server fills in the language and the page (its render and the answers it was given).
      await writeFile(file, fillTemplate(template, '%LANGUAGE%', '%PAGE%'));
      continue;
    }
    for (const language of LANGUAGES) {
      window.history.replaceState(null, '', address);
      const body = await renderPage(language);
      if (!body.includes('<main')) throw new Error(`${address} in ${language} rendered no page: ${body}`);
      const file = fileOf(path.join(distDir, 'prerendered', language), address);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, fillTemplate(template, language, body));
      written += 1;
    }
  }
  console.log(`prerendered ${written} landing pages`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await prerender();
  // The app's modules keep timers of their own (queries, stores); the pages are written.
  process.exit(0);
}
