import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { apiWaitForGeneration, type ApiGeneration } from '../lib/generations.js';
import { storedTokens } from '../lib/session.js';
import {
  installTelegramHost,
  miniAppUrl,
  newTelegramUser,
  postedMethods,
  signInitData,
  telegramAccountFor,
} from '../lib/telegram.js';

describe.each(VIEWPORT_NAMES)('inside Telegram (%s)', (viewport) => {
  let s: Session;
  beforeEach(async () => {
    s = await openBrowser(viewport);
    await installTelegramHost(s.page);
  });
  afterEach(async () => {
    await s.close();
  });

  it.each([
    ['7.6', { swipes: false, fullscreen: false }],
    ['7.7', { swipes: true, fullscreen: false }],
    ['8.0', { swipes: true, fullscreen: true }],
  ])(
    'Telegram %s: expand, write access, and swipes / fullscreen by version; signed in by init data',
    async (version, expected) => {
      const { page } = s;
      const user = newTelegramUser({ first_name: 'Pavel', last_name: `V${version.replace('.', '')}` });
      await page.goto(miniAppUrl('/create/', { initData: signInitData(user), version }));
      // The launch made the account: the onboarding comes first, once, then the page Telegram opened.
      await page.getByTestId('welcome-page').waitFor();
      expect(new URL(page.url()).searchParams.get('next')).toBe('/create/');
      if (version === '8.0') await saveScreenshot(page, `telegram-welcome-${viewport}`);
      await page.getByTestId('welcome-skip').click();
      await page.getByTestId('create-page').waitFor();
      await page.reload();
      await page.getByTestId('create-page').waitFor();
      expect(await page.getByTestId('welcome-page').count()).toBe(0);
      await page.goto(miniAppUrl('/', { initData: signInitData(user), version }));
      await page.getByTestId('home-page').waitFor();
      await page.getByTestId('header-profile').waitFor();
      expect(await page.getByTestId('header-sign-in').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.dataset.host)).toBe('telegram');
      await expect.poll(() => postedMethods(page)).toContain('web_app_request_write_access');
      if (expected.fullscreen)
        await expect.poll(() => postedMethods(page)).toContain('web_app_request_fullscreen');
      const methods = await postedMethods(page);
      expect(methods).toContain('web_app_expand');
      expect(methods.includes('web_app_setup_swipe_behavior')).toBe(expected.swipes);
      expect(methods.includes('web_app_request_fullscreen')).toBe(expected.fullscreen);
      // The init data is the credential (local key tgData, `TG …` header); no tokens needed.
      const tokens = await storedTokens(page);
      expect(tokens.tgData).toContain('hash=');
      expect(tokens.refresh).toBeNull();
      // Telegram's palette drives the theme variables.
      expect(
        await page.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue('--tg-theme-bg-color'),
        ),
      ).toBe('#17212b');
      // A login-required page opens without any sign-in screen.
      await page.getByTestId('header-profile').click();
      await expect
        .poll(() => page.getByTestId('profile-name').textContent())
        .toBe(`Pavel V${version.replace('.', '')}`);
      if (version === '8.0') await saveScreenshot(page, `telegram-profile-${viewport}`);
    },
  );

  it('binds Telegram’s back button to the history', async () => {
    const { page } = s;
    const user = newTelegramUser();
    await telegramAccountFor(user);
    await page.goto(miniAppUrl('/', { initData: signInitData(user), version: '8.0' }));
    await page.getByTestId('home-page').waitFor();
    await page.evaluate(() => (document.querySelector('a[href="/create/"]') as HTMLElement).click());
    await page.getByTestId('create-page').waitFor();
    const backButton = () =>
      page.evaluate(() =>
        (
          window as unknown as { __tgPosted: Array<{ method: string; params: { is_visible?: boolean } }> }
        ).__tgPosted
          .filter((e) => e.method === 'web_app_setup_back_button')
          .map((e) => e.params.is_visible),
      );
    await expect.poll(backButton).toEqual([true]);
    // Telegram reports a press of its back button as an event.
    await page.evaluate(() =>
      (
        window as unknown as { Telegram: { WebView: { receiveEvent(n: string, d?: unknown): void } } }
      ).Telegram.WebView.receiveEvent('back_button_pressed'),
    );
    await page.waitForURL((u) => new URL(u).pathname === '/');
    await expect.poll(backButton).toEqual([true, false]);
  });

  it('the back button leaves the newer screens the way they came (a tool’s form, the photo packs) and closes a sheet first', async () => {
    const { page } = s;
    const user = newTelegramUser();
    await telegramAccountFor(user);
    await page.goto(miniAppUrl('/create/', { initData: signInitData(user), version: '8.0' }));
    await page.getByTestId('create-page').waitFor();
    const pressBack = () =>
      page.evaluate(() =>
        (
          window as unknown as { Telegram: { WebView: { receiveEvent(n: string, d?: unknown): void } } }
        ).Telegram.WebView.receiveEvent('back_button_pressed'),
      );
    const lastBackButton = () =>
      page.evaluate(
        () =>
          (
            window as unknown as { __tgPosted: Array<{ method: string; params: { is_visible?: boolean } }> }
          ).__tgPosted
            .filter((e) => e.method === 'web_app_setup_back_button')
            .at(-1)?.params.is_visible,
      );
    for (const [card, screen] of [
      ['mode-upscale', 'generate-form'],
      ['mode-photo_pack', 'photo-pack-list'],
    ] as const) {
      await page.getByTestId(card).click();
      await page.getByTestId(screen).waitFor();
      await expect.poll(lastBackButton).toBe(true);
      await pressBack();
      await page.waitForURL((u) => new URL(u).pathname === '/create/');
      await expect.poll(lastBackButton).toBe(false);
    }
    // A sheet over a form is closed by the back button first; the next press leaves the form.
    await page.getByTestId('mode-simple').click();
    await page.getByTestId('helper-open').click();
    await page.getByTestId('helper-sheet').waitFor();
    await pressBack();
    await page.getByTestId('helper-sheet').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).not.toBe('/create/');
    await expect.poll(lastBackButton).toBe(true);
    await pressBack();
    await page.waitForURL((u) => new URL(u).pathname === '/create/');
  });

  it('a p_<token> start parameter opens /profile/<token>/', async () => {
    const { page } = s;
    const someone = await createActiveUser({ firstName: 'Mary', lastName: 'Somerville' });
    const startParam = `p_${someone.uuid}`;
    const user = newTelegramUser();
    await telegramAccountFor(user);
    await page.goto(
      miniAppUrl('/', { initData: signInitData(user, startParam), version: '8.0', startParam }),
    );
    await page.waitForURL((u) => new URL(u).pathname === `/profile/${someone.uuid}/`);
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Mary Somerville');
  });

  it('a qs_<id> start parameter reloads the page with the saved query string and the after-redirect marker', async () => {
    const { page } = s;
    const tgUser = newTelegramUser();
    const saved = await callApi<{ id: string; start_param: string }>('/api/qs/', {
      body: { qs: 'prompt=neon+cat&mode=simple' },
      authorization: `TG ${signInitData(tgUser)}`,
    });
    expect(saved.status).toBe(201);
    const startParam = saved.body.start_param;
    expect(startParam).toBe(`qs_${saved.body.id}`);
    await page.goto(
      miniAppUrl('/generate/simple/', {
        initData: signInitData(tgUser, startParam),
        version: '8.0',
        startParam,
      }),
    );
    await page.waitForURL((u) => new URL(u).searchParams.get('after_redirect') === '1');
    const address = new URL(page.url());
    expect(address.pathname).toBe('/generate/simple/');
    expect(address.searchParams.get('prompt')).toBe('neon cat');
    expect(address.searchParams.get('mode')).toBe('simple');
    await page.getByTestId('generate-page').waitFor();
    // The saved query string fills the description in.
    expect(await page.getByTestId('prompt').inputValue()).toBe('neon cat');
  });

  it('a result is shared and downloaded through Telegram', async () => {
    const { page } = s;
    const tgUser = newTelegramUser({ first_name: 'Sasha' });
    const authorization = `TG ${signInitData(tgUser)}`;
    const created = await callApi<ApiGeneration>('/api/generations/', {
      body: { mode: 'simple', prompt: 'A snowy owl on a branch', seed: 2 },
      authorization,
    });
    expect(created.status).toBe(201);
    await apiWaitForGeneration({ access: '' }, created.body.uuid, 30_000, authorization);
    await page.goto(
      miniAppUrl(`/generation/${created.body.uuid}/`, { initData: signInitData(tgUser), version: '8.0' }),
    );
    await page.getByTestId('result-image').waitFor();
    await page.getByTestId('result-share').click();
    const posted = () =>
      page.evaluate(
        () => (window as unknown as { __tgPosted: Array<{ method: string; params: unknown }> }).__tgPosted,
      );
    await expect.poll(async () => (await posted()).map((e) => e.method)).toContain('web_app_open_tg_link');
    const share = (await posted()).find((e) => e.method === 'web_app_open_tg_link')!.params as {
      path_full: string;
    };
    const shared = new URL(share.path_full, 'https://t.me');
    expect(shared.pathname).toBe('/share/url');
    // A lasting link (the result's share page), not the file's signed address.
    expect(shared.searchParams.get('url')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]{22,}\/$/);
    expect(shared.searchParams.get('text')).toBe('Made with Mirra');

    await page.getByTestId('result-download').click();
    await expect
      .poll(async () => (await posted()).map((e) => e.method))
      .toContain('web_app_request_file_download');
    const download = (await posted()).find((e) => e.method === 'web_app_request_file_download')!.params as {
      url: string;
      file_name: string;
    };
    expect(download.file_name).toMatch(/^mirra-[0-9a-f]{8}\.jpg$/);
    expect(download.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/media\/.+download=/);
  });

  it('the dev mode opens the app as if inside Telegram, with init data signed by the server', async () => {
    const { page } = s;
    await page.goto(url('/?tg_dev=1&tg_version=7.7&first_name=Devi'));
    // One dev user for both viewports: its first launch (whichever runs first) made the account
    // and opens the onboarding, which goes on home.
    const welcome = page.getByTestId('welcome-page');
    await page.getByTestId('home-page').or(welcome).waitFor();
    if (await welcome.isVisible()) await page.getByTestId('welcome-skip').click();
    await page.getByTestId('home-page').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.host)).toBe('telegram');
    await page.getByTestId('header-profile').waitFor();
    await expect
      .poll(() =>
        page.evaluate(() =>
          (
            (window as unknown as { __mirraTelegramEvents?: Array<{ method: string }> })
              .__mirraTelegramEvents ?? []
          ).map((e) => e.method),
        ),
      )
      .toEqual(
        expect.arrayContaining([
          'web_app_expand',
          'web_app_setup_swipe_behavior',
          'web_app_request_write_access',
        ]),
      );
    await page.goto(url('/profile/'));
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Devi');
  });
});
