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
const ROUTER_SOURCE = path.resolve(import.meta.dirname, '../../apps/web/src/app/route-table.ts');
/** A photo pack every installation starts with. */
const PHOTO_PACK = '5a170000-0000-4000-8000-000000000001';

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
  '/verify/',
  '/takedown/',
  '/packs/',
  `/packs/${PHOTO_PACK}/`,
  '/s/not-a-real-token/',
  '/consent/not-a-real-token/',
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
  '/settings/notifications/',
  '/settings/mlm/',
  '/structure/',
  '/structure/linear/',
  '/wallet',
  '/wallet/transactions/643/',
  '/wallet/pay-in/',
  '/wallet/pay-out/',
  '/packs/',
  `/packs/${PHOTO_PACK}/`,
  `/albums/${f.generationUuid}/`,
  // Not staff: the console says it does not exist.
  '/admin/',
];

/** Every path pattern of the route table (`path: '…'`), read from its source (route-table.ts). */
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

/**
 * What reads badly at 360 px though nothing sticks out: a word broken in the middle (idea tiles, the
 * Premium card), text squeezed to a word a line (the Premium card), an author's name cut to a few
 * letters, tabs scrolled off-screen with nothing showing there are more, and a card's title that
 * cannot be tapped.
 */
function readabilityProblems(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const all = <T extends Element = HTMLElement>(selector: string) =>
      Array.from(document.querySelectorAll<T>(selector));
    const text = (element: Element) => (element.textContent ?? '').trim().slice(0, 40);
    // A word split over two lines has a box on each: hyphenated compounds may break at their hyphen.
    for (const element of all(
      '.idea-card__text, .premium-card__title, .premium-card__text, .premium-card__cta, .post-card__name',
    )) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? '').matchAll(/[^\s\-\u2010]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
          if (lines.size > 1) problems.push(`word broken: "${match[0]}" in "${text(element)}"`);
        }
      }
    }
    for (const body of all('.premium-card__body')) {
      const width = body.getBoundingClientRect().width;
      if (width < 150) problems.push(`Premium card text ${Math.round(width)} px wide: "${text(body)}"`);
    }
    for (const name of all('.post-card__name')) {
      const width = name.getBoundingClientRect().width;
      if (name.scrollWidth > name.clientWidth + 1 && width < 80) {
        problems.push(`author name cut to ${Math.round(width)} px: "${text(name)}"`);
      }
    }
    for (const row of all('.tabs')) {
      if (row.scrollWidth <= row.clientWidth + 1) continue;
      const style = getComputedStyle(row);
      const mask = style.maskImage || style.getPropertyValue('-webkit-mask-image');
      if (!row.dataset.more || !mask || mask === 'none') {
        problems.push(`tabs scroll with nothing showing more: "${text(row)}"`);
      }
    }
    for (const card of all('[data-testid="post-card"]')) {
      const caption = card.querySelector('.post-card__caption');
      if (caption && !caption.closest('a[href^="/post/"]')) {
        problems.push(`card title cannot be tapped: "${text(caption)}"`);
      }
    }
    return problems;
  });
}

/** Pages whose cards, tiles and tabs the readability check reads. */
const readablePaths = (f: Fixture) => [
  '/',
  '/posts/top/',
  '/posts/new/',
  '/profile/',
  `/profile/${f.author.uuid}/`,
];

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

  it.each(LANGUAGES)(
    'no screen is wider than the window in %s',
    async (language) => {
      const s = await openBrowser('phone', { size: PHONE_360, locale: language });
      const overflows: string[] = [];
      const unreadable: string[] = [];
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
          if (readablePaths(fixture).includes(pathname)) {
            if (pathname.startsWith('/profile/')) {
              // The profile's list is a tab: its cards (or that there are none) come after the page.
              await page
                .locator('[data-testid="post-card"], .empty-state, [data-testid="sign-in-panel"]')
                .first()
                .waitFor();
            }
            // The tab row's fade is set by a ResizeObserver once fonts and labels are laid out, a
            // frame or more after the page settles: a problem must last a second to count.
            let problems = await readabilityProblems(page);
            for (let tries = 0; problems.length && tries < 5; tries += 1) {
              await page.waitForTimeout(250);
              problems = await readabilityProblems(page);
            }
            unreadable.push(...problems.map((problem) => `${pathname}: ${problem}`));
            if (problems.length) {
              await saveScreenshot(page, `unreadable-${language}${pathname.replace(/\W+/g, '-')}`, true);
            }
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
      expect(unreadable).toEqual([]);
      // The result page asks whether the result is posted: "not yet" is an answer, not a logged 404.
      expect(resultConsoleErrors).toEqual([]);
      // About fifty screens, each drawn and measured: well past the default time on a busy machine.
    },
    240_000,
  );
});

describe('console at 360 px (phone)', () => {
  it('landing pages warn of nothing in the console, their preloads included', async () => {
    // Chromium warns of a preload left unused a few seconds after the load event: each landing page
    // (the start script preloads their files) is given that long. The session's close fails on any
    // console warning.
    const s = await openBrowser('phone', { size: PHONE_360 });
    try {
      for (const pathname of ['/', '/create/', '/posts/top/', '/welcome/']) {
        await s.page.goto(url(pathname), { waitUntil: 'load' });
        await s.page.locator('[data-testid$="-page"]').first().waitFor();
        await s.page.waitForTimeout(4_000);
      }
      expect(s.errors.filter((error) => /warning/.test(error))).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
