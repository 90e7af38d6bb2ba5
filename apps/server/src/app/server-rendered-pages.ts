import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TLanguage } from '@mirra/contracts';

/**
 * Pages whose first screen shows data, rendered by the server for visitors without a session: each
 * address and the API requests its first screen makes, exactly as the web app's client writes them
 * (the feed's first page of 20). The app answers the same requests from the page instead of asking
 * again; a request written differently is simply asked again.
 */
export const SERVER_RENDERED_PAGES: Readonly<Record<string, readonly string[]>> = {
  '/posts/top/': ['/api/posts/?type=recommended&limit=20'],
};

/** How long a rendered page is served before it is rendered again with fresh data. */
export const RENDERED_PAGE_TTL_MS = 30_000;
const RENDER_TIMEOUT_MS = 10_000;
const RESTART_AFTER_CRASH_MS = 60_000;

/** Where the web build leaves its Node bundle, the render worker and the pages' templates. */
const SSR_DIR = 'ssr';

export interface PageRenderer {
  /** The page's first render as HTML (`#root`'s content) in `language`, given its requests' answers. */
  render(address: string, language: TLanguage, answers: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * The web app rendered in a worker thread (its own jsdom window, off the API's event loop),
 * started on first use and again after a crash.
 */
export function createPageRenderer(workerFile: string): PageRenderer {
  let worker: Worker | undefined;
  let ready: Promise<void> | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (html: string) => void; reject: (error: Error) => void }>();

  const failAll = (error: Error) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };

  // A renderer that cannot start (or keeps crashing) is not started again on every visit.
  let crashedAt = Number.NEGATIVE_INFINITY;

  function start(): Promise<void> {
    if (ready) return ready;
    if (Date.now() - crashedAt < RESTART_AFTER_CRASH_MS) {
      return Promise.reject(new Error('the page renderer crashed a moment ago'));
    }
    const started = new Worker(workerFile);
    started.unref();
    worker = started;
    ready = new Promise<void>((resolve, reject) => {
      started.on('message', (message: { ready?: boolean; id?: number; html?: string; error?: string }) => {
        if (message.ready) return resolve();
        const waiter = pending.get(message.id ?? -1);
        if (!waiter) return;
        pending.delete(message.id!);
        if (message.html !== undefined) waiter.resolve(message.html);
        else waiter.reject(new Error(message.error ?? 'the page renderer gave no page'));
      });
      const stop = (error: Error) => {
        crashedAt = Date.now();
        if (worker === started) {
          worker = undefined;
          ready = undefined;
        }
        reject(error);
        failAll(error);
      };
      started.on('error', stop);
      started.on('exit', (code) => stop(new Error(`the page renderer exited with ${code}`)));
    });
    return ready;
  }

  return {
    async render(address, language, answers) {
      await start();
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`rendering ${address} took over ${RENDER_TIMEOUT_MS} ms`));
        }, RENDER_TIMEOUT_MS);
        pending.set(id, {
          resolve: (html) => (clearTimeout(timer), resolve(html)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        });
        worker!.postMessage({ id, address, language, answers });
      });
    },
    async close() {
      const running = worker;
      worker = undefined;
      ready = undefined;
      await running?.terminate();
    },
  };
}

/** The built web app's renderer and page templates, when the build made them. */
export function findServerRenderedPages(
  webRoot: string,
): { workerFile: string; templates: Map<string, string> } | null {
  const workerFile = path.join(webRoot, SSR_DIR, 'render-worker.mjs');
  if (!existsSync(workerFile)) return null;
  const templates = new Map<string, string>();
  for (const address of Object.keys(SERVER_RENDERED_PAGES)) {
    const file = path.join(webRoot, SSR_DIR, 'pages', ...address.split('/').filter(Boolean), 'index.html');
    if (existsSync(file)) templates.set(address, readFileSync(file, 'utf8'));
  }
  return templates.size ? { workerFile, templates } : null;
}

/** JSON that stays data inside an HTML `<script>` element. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A page's template filled with its render in `language` and the answers the app will reuse. */
export function fillPageTemplate(
  template: string,
  language: TLanguage,
  body: string,
  answers: Record<string, unknown>,
): string {
  const answersScript = `<script type="application/json" id="page-answers">${jsonForHtml(answers)}</script>`;
  return template.replaceAll('%LANGUAGE%', language).replace('%PAGE%', () => body + answersScript);
}

/**
 * Rendered pages by address and language, each served for `ttlMs` and rendered again after; one
 * render at a time per page (everyone asking meanwhile waits for it). `produce` answers null when
 * the page cannot be rendered now; nothing is kept then.
 */
export function createRenderedPageCache(
  produce: (address: string, language: TLanguage) => Promise<string | null>,
  ttlMs = RENDERED_PAGE_TTL_MS,
  now: () => number = Date.now,
) {
  const pages = new Map<string, { html: string; until: number }>();
  const rendering = new Map<string, Promise<string | null>>();
  return {
    get(address: string, language: TLanguage): Promise<string | null> {
      const key = `${language} ${address}`;
      const kept = pages.get(key);
      if (kept && kept.until > now()) return Promise.resolve(kept.html);
      let running = rendering.get(key);
      if (!running) {
        running = produce(address, language)
          .then((html) => {
            if (html !== null) pages.set(key, { html, until: now() + ttlMs });
            return html;
          })
          .finally(() => rendering.delete(key));
        rendering.set(key, running);
      }
      return running;
    },
  };
}
