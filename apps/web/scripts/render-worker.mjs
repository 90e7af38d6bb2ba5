/**
 * The server's page renderer, a worker thread (copied into dist/ssr/ beside the app's Node bundle
 * by prerender.mjs): renders one page at a time, as `{ id, address, language, answers }` asks,
 * and answers `{ id, html }` or `{ id, error }`. The app's modules share one window, so pages are
 * rendered in turn.
 */
import { parentPort } from 'node:worker_threads';
import { installWindow } from './ssr-window.mjs';

const window = installWindow();
const { renderPage } = await import('./render-page.js');

let queue = Promise.resolve();
parentPort.on('message', ({ id, address, language, answers }) => {
  queue = queue.then(async () => {
    try {
      window.history.replaceState(null, '', address);
      parentPort.postMessage({ id, html: await renderPage(language, answers) });
    } catch (error) {
      parentPort.postMessage({
        id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
});
parentPort.postMessage({ ready: true });
