import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url } from '../lib/browser.js';
import { apiGenerate, apiWaitForGeneration } from '../lib/generations.js';

/**
 * No screen may be wider than the narrowest phones (360 px) in any language: German compounds and
 * long Russian and Kazakh words must wrap, never push the page sideways. One browser per language
 * walks every route of the route table, as a guest and then signed in.
 */
const PHONE_360 = { width: 360, height: 780 };
const LANGUAGES = ['ru', 'de', 'kk', 'az', 'uk', 'en'] as const;
const ROUTER_SOURCE = path.resolve(import.meta.dirname, '../../apps/web/src/app/router.tsx');

interface Fixture {
  member: TestUser;
  author: TestUser;
  /** The member's own result, never published. */
  generationUuid: string;
  /** The author's published post. */
  postUuid: string;
  modelUuid: string;
}

const guestPaths = () => [
  '/welcome/',
  '/',
  '/create/',
  '/posts/top/',
  '/sign-in/',
  '/sign-up/',
  '/lost-pass/',
  '/reset-pass/MQ/not-a-real-token',
  '/activate/MQ/not-a-real-token',
  '/sberpay/1/',
  '/no-such-page/',
  // A login-required page opens the sign-in popup over it.
  '/profile/',
];

const memberPaths = (f: Fixture) => [
  '/',
  '/create/',
  '/generate/simple/',
  '/generate/face_swap/',
  '/generate/editing/',
  '/generate/styling/',
  '/generate/video/',
  `/generate/face_swap/post/${f.postUuid}/`,
  `/generate/simple/post/${f.postUuid}/`,
  `/generate/editing/generation/${f.generationUuid}/`,
  `/generation/${f.generationUuid}/`,
  `/post/${f.postUuid}/`,
  '/posts/',
  '/prompts/top/',
  '/posts/top/',
  '/posts/new/',
  '/posts/saved/',
  '/posts/subscribed/',
  '/upload/',
  `/model/${f.modelUuid}/`,
  '/notifications',
  '/profile/',
  `/profile/${f.author.uuid}/`,
  '/profile-edit/',
  '/settings/',
  '/settings/subscription/',
  '/settings/language/',
  '/settings/socials/',
  '/settings/theme/',
  '/settings/mlm/',
  '/structure/',
  '/structure/linear/',
  '/wallet',
  '/wallet/transactions/643/',
  '/wallet/pay-in/',
  '/wallet/pay-out/',
];

/** Every path pattern of the route table (`path: '…'`), read from its source. */
async function routePatterns(): Promise<string[]> {
  const source = await readFile(ROUTER_SOURCE, 'utf8');
  return [...source.matchAll(/\bpath: ['`]([^'`]+)['`]/g)].map((match) => match[1]!);
}

const matchesPattern = (pattern: string, pathname: string) =>
  pattern === '*' ||
  new RegExp(`^${pattern.replace(/:[A-Za-z_]+/g, '[^/]+').replace(/\//g, '\\/')}$`).test(pathname);

/**
 * Waits until the page is drawn and has its data: a page (or the sign-in popup) is on screen and
 * no request is in flight (event streams aside, they stay open), then one more frame.
 */
async function settle(page: Page, pending: Set<unknown>) {
  await page.locator('[data-testid$="-page"], [data-testid="sign-in-panel"]').first().waitFor();
  await expect.poll(() => pending.size).toBe(0);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/**
 * How much wider than the phone the page is, and the innermost elements sticking out. Measured
 * against the phone's width, not `innerWidth`: a phone browser zooms out to fit a page that
 * overflows, and its `innerWidth` then grows with the page.
 */
function measureOverflow(page: Page, width: number) {
  return page.evaluate((width) => {
    const excess = Math.max(document.documentElement.scrollWidth, window.innerWidth) - width;
    if (excess <= 0) return null;
    const sticking = Array.from(document.body.querySelectorAll<HTMLElement>('*')).filter((element) => {
      if (element.getBoundingClientRect().right <= width + 0.5) return false;
      return !Array.from(element.children).some((child) => child.getBoundingClientRect().right > width + 0.5);
    });
    const describe = (element: HTMLElement) =>
      `${element.tagName.toLowerCase()}${element.dataset.testid ? `[${element.dataset.testid}]` : ''}` +
      `.${Array.from(element.classList).join('.')} "${(element.textContent ?? '').trim().slice(0, 30)}"`;
    return { excess, sticking: sticking.slice(0, 5).map(describe) };
  }, width);
}

describe('layout at 360 px in every language (phone)', () => {
  let fixture: Fixture;
  beforeAll(async () => {
    const [member, author] = await Promise.all([
      createActiveUser({ firstName: 'Konstantin', lastName: 'Konstantinopolsky' }),
      createActiveUser({ firstName: 'Aigerim', lastName: 'Nurmagambetova' }),
    ]);
    const bearer = (user: TestUser) => `Bearer ${user.access}`;
    // A fixed seed: the same picture each run (and the same answer from the result moderation).
    const recipe = { mode: 'simple', prompt: 'A lighthouse on a cliff at sunset', seed: 2 };
    const [mine, theirs] = await Promise.all([apiGenerate(member, recipe), apiGenerate(author, recipe)]);
    await Promise.all([apiWaitForGeneration(member, mine.uuid), apiWaitForGeneration(author, theirs.uuid)]);
    const post = await callApi<{ uuid: string }>('/api/posts/', {
      body: { generation_uuid: theirs.uuid, title: 'Leuchtturmwärterhäuschen am Klippenrand' },
      authorization: bearer(author),
    });
    expect(post.status).toBe(201);
    const model = await callApi<{ uuid: string }>('/api/models/', {
      body: { name: 'Konstantinopolsky', category: 'male' },
      authorization: bearer(member),
    });
    expect(model.status).toBe(201);
    fixture = {
      member,
      author,
      generationUuid: mine.uuid,
      postUuid: post.body.uuid,
      modelUuid: model.body.uuid,
    };
  });

  it('visits every route of the route table', async () => {
    const visited = [...guestPaths(), ...memberPaths(fixture)];
    const unvisited = (await routePatterns()).filter(
      (pattern) => !visited.some((pathname) => matchesPattern(pattern, pathname)),
    );
    expect(unvisited).toEqual([]);
  });

  it.each(LANGUAGES)('no screen is wider than the window in %s', async (language) => {
    const s = await openBrowser('phone', { size: PHONE_360, locale: language });
    const overflows: string[] = [];
    const resultConsoleErrors: string[] = [];
    try {
      const { page } = s;
      const pending = new Set<unknown>();
      page.on('request', (request) => {
        if (!/\/events\/$/.test(request.url())) pending.add(request);
      });
      page.on('requestfinished', (request) => pending.delete(request));
      page.on('requestfailed', (request) => pending.delete(request));
      let current = '';
      page.on('console', (message) => {
        if (message.type() === 'error' && current.startsWith('/generation/')) {
          resultConsoleErrors.push(message.text());
        }
      });
      const check = async (pathname: string) => {
        current = pathname;
        await page.goto(url(pathname));
        await settle(page, pending);
        const overflow = await measureOverflow(page, PHONE_360.width);
        if (overflow) {
          overflows.push(`${pathname}: ${overflow.excess}px too wide; ${overflow.sticking.join(' | ')}`);
          await saveScreenshot(page, `overflow-${language}${pathname.replace(/\W+/g, '-')}`, true);
        }
      };

      await page.goto(url('/welcome/'));
      await page.evaluate((lang) => localStorage.setItem('django_language', lang), language);
      for (const pathname of guestPaths()) await check(pathname);

      await page.evaluate(
        ({ refresh, access }) => {
          localStorage.setItem('refresh', refresh);
          localStorage.setItem('access', access);
        },
        { refresh: fixture.member.refresh, access: fixture.member.access },
      );
      for (const pathname of memberPaths(fixture)) await check(pathname);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
    } finally {
      await s.close();
    }
    expect(overflows).toEqual([]);
    // The result page asks whether the result is posted: "not yet" is an answer, not a logged 404.
    expect(resultConsoleErrors).toEqual([]);
  });
});
