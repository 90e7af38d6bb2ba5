import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { e2eEnv } from './env.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;
export const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as ViewportName[];

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Browser console errors, console warnings and page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * A fresh Chromium with its own profile directory. Every request leaving the test server is
 * answered locally (t.me links get a stub page), so nothing reaches the internet.
 */
export async function openBrowser(
  viewport: ViewportName,
  options: {
    theme?: 'dark' | 'light' | 'system';
    colorScheme?: 'dark' | 'light';
    locale?: string;
    /** A viewport size other than the named one's (e.g. the narrowest phones, 360 px wide). */
    size?: { width: number; height: number };
    /** Other local origins the page may reach (another API node, the S3-compatible store). */
    alsoAllow?: string[];
    /** More Chromium switches for this browser only (e.g. a fake camera playing a file). */
    extraArgs?: string[];
  } = {},
): Promise<Session> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'mirra-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...ARGS, ...(options.extraArgs ?? [])],
    viewport: options.size ?? VIEWPORTS[viewport],
    isMobile: viewport === 'phone',
    hasTouch: viewport === 'phone',
    deviceScaleFactor: 1,
    colorScheme: options.colorScheme ?? 'dark',
    locale: options.locale ?? 'en-US',
  });
  const base = new URL(e2eEnv.baseUrl);
  const allowed = new Set([base.host, ...(options.alsoAllow ?? []).map((o) => new URL(o).host)]);
  // Only this machine: the app, the local fakes of payment providers whose pages a buyer visits, and
  // any origin a test names (an S3-compatible store).
  await context.route(
    (url) => !allowed.has(url.host) && url.hostname !== base.hostname,
    (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === 't.me') {
        return route.fulfill({
          contentType: 'text/html',
          body: '<title>Telegram</title><p>Telegram stub</p>',
        });
      }
      return route.abort('blockedbyclient');
    },
  );
  if (options.theme) {
    await context.addCookies([{ name: 'theme', value: options.theme, url: e2eEnv.baseUrl }]);
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  context.on('page', (p) => watch(p, errors));
  watch(page, errors);
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
      // Whatever a spec checks, something the server's Content-Security-Policy blocked is a broken app,
      // and so is a console warning (a preload nobody used, a deprecated call): each is a real defect.
      const blocked = errors.filter(isCspViolation);
      if (blocked.length) throw new Error(`Content-Security-Policy violations:\n${blocked.join('\n')}`);
      const warned = errors.filter(isConsoleWarning);
      if (warned.length) throw new Error(`Console warnings:\n${warned.join('\n')}`);
    },
  };
}

/** Chromium reports what a Content-Security-Policy refused as a console error. */
export const isCspViolation = (error: string) =>
  /Content Security Policy|Content-Security-Policy/i.test(error);

const WARNING_PREFIX = 'console warning: ';

/** A console warning, as collected among a session's errors. */
export const isConsoleWarning = (error: string) => error.startsWith(WARNING_PREFIX);

function watch(page: Page, errors: string[]) {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
    if (message.type() === 'warning') {
      const where = message.location().url;
      errors.push(`${WARNING_PREFIX}${message.text()}${where ? ` (${where})` : ''}`);
    }
  });
}

/** Saves a screenshot under test-results/screens/ (git-ignored). */
export async function saveScreenshot(page: Page, name: string, fullPage = false): Promise<string> {
  const file = path.join(e2eEnv.resultsDir, 'screens', `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

export const url = (pathname: string) => new URL(pathname, e2eEnv.baseUrl).toString();
