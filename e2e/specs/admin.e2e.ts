import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi, createActiveUser, PASSWORD, type TestUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, type Session } from '../lib/browser.js';
import { e2eEnv } from '../lib/env.js';
import { apiBalance, apiGenerate, apiWaitForGeneration } from '../lib/generations.js';
import { signInWithTokens } from '../lib/session.js';
import { grantStaff } from '../lib/staff.js';

const bearer = (user: TestUser) => `Bearer ${user.access}`;
const grant = grantStaff;

/** The screen reloaded in each theme, once it shows `testId`, and saved as `<name>-<theme>`. */
async function screenshotInBothThemes(page: Page, testId: string, name: string) {
  for (const theme of ['dark', 'light'] as const) {
    await page.context().addCookies([{ name: 'theme', value: theme, url: e2eEnv.baseUrl }]);
    await page.reload();
    await page.getByTestId(testId).waitFor();
    await page.waitForLoadState('networkidle');
    await saveScreenshot(page, `${name}-${theme}`, true);
  }
}

/** A published post of a new author, reported by `reasons.length` other people. */
async function reportedPost(reasons: string[]) {
  const author = await createActiveUser({ firstName: 'Reported', lastName: 'Author' });
  const generation = await apiGenerate(author, {
    mode: 'simple',
    prompt: 'A quiet harbour at dawn',
    seed: 3,
  });
  await apiWaitForGeneration(author, generation.uuid);
  const post = await callApi<{ uuid: string }>('/api/posts/', {
    body: { generation_uuid: generation.uuid, title: 'Harbour', draft: false },
    authorization: bearer(author),
  });
  expect(post.status).toBe(201);
  for (const reason of reasons) {
    const reporter = await createActiveUser();
    const reported = await callApi(`/api/posts/${post.body.uuid}/report/`, {
      body: { reason },
      authorization: bearer(reporter),
    });
    expect(reported.status).toBeLessThan(300);
  }
  return { author, uuid: post.body.uuid };
}

const cardOf = (page: Page, postUuid: string) =>
  page.locator(`[data-testid="admin-report"][data-post="${postUuid}"]`);

let sessions: Session[] = [];
afterEach(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  sessions = [];
});

async function browserFor(user: TestUser, theme: 'dark' | 'light' = 'dark') {
  const session = await openBrowser('phone', { theme, size: { width: 375, height: 812 } });
  sessions.push(session);
  await signInWithTokens(session.page, user);
  return session;
}

describe('staff console', () => {
  it('a moderator restores one reported post and removes another; the authors are told', async () => {
    const moderator = await createActiveUser({ firstName: 'Mo', lastName: 'Derator' });
    await grant(moderator, 'moderator');
    const hidden = await reportedPost(['spam', 'hate', 'other']);
    const consent = await reportedPost(['not_consented']);

    // A normal user finds no console.
    const outsider = await browserFor(await createActiveUser());
    await outsider.page.goto(url('/admin/'));
    await outsider.page.getByText('This page does not exist').waitFor();

    const { page } = await browserFor(moderator);
    await page.goto(url('/admin/'));
    await page.getByTestId('admin-reports').waitFor();
    // "Shared without consent" comes first.
    await expect
      .poll(() => page.getByTestId('admin-report').first().getAttribute('data-post'))
      .toBe(consent.uuid);
    await cardOf(page, hidden.uuid).getByText('Hidden', { exact: true }).waitFor();
    // Moderators do not get the ban button.
    expect(await page.getByTestId('report-actions-removeAndBan').count()).toBe(0);
    await screenshotInBothThemes(page, 'admin-reports', 'admin-reports-375');

    // A reason is required.
    const hiddenCard = cardOf(page, hidden.uuid);
    await hiddenCard.getByTestId('report-actions-restore').click();
    await hiddenCard.getByRole('alert').getByText('Say why').waitFor();
    await hiddenCard.getByTestId('report-actions-reason').fill('Satire, within the rules');
    await hiddenCard.getByTestId('report-actions-restore').click();
    await hiddenCard.waitFor({ state: 'detached' });
    const restored = await callApi<{ status: string }>(`/api/posts/${hidden.uuid}/`, {
      authorization: bearer(moderator),
    });
    expect(restored.body.status).toBe('published');

    const consentCard = cardOf(page, consent.uuid);
    await consentCard.getByTestId('report-actions-reason').fill('A real person, no consent');
    // Removing asks first, in place; only the second press removes.
    await consentCard.getByTestId('report-actions-remove').click();
    await consentCard.getByTestId('report-actions-confirm').getByText('Remove this publication?').waitFor();
    expect((await callApi(`/api/posts/${consent.uuid}/`, { authorization: bearer(moderator) })).status).toBe(
      200,
    );
    await saveScreenshot(page, 'admin-report-confirm-375', true);
    await consentCard.getByTestId('report-actions-remove').click();
    await consentCard.waitFor({ state: 'detached' });
    expect((await callApi(`/api/posts/${consent.uuid}/`, { authorization: bearer(moderator) })).status).toBe(
      404,
    );

    // The removed post's author reads why in their notifications.
    const author = await browserFor(consent.author);
    await author.page.goto(url('/notifications'));
    await author.page.getByText('Your publication was removed after review').waitFor();
  });

  it('an admin bans a person, who then cannot sign in; grants credits the person sees; exports and deletes the account on request', async () => {
    const admin = await createActiveUser({ firstName: 'Ad', lastName: 'Min' });
    await grant(admin, 'admin');
    const person = await createActiveUser({ firstName: 'Pat', lastName: 'Person' });
    const before = await apiBalance(person);

    const { page } = await browserFor(admin, 'light');
    await page.goto(url('/admin/users/'));
    await page.getByTestId('admin-user-search').fill(person.email);
    await page.getByTestId('admin-user-search-submit').click();
    await page.getByTestId('admin-user-row').click();
    await page.getByTestId('admin-user').waitFor();

    // Credits: 50 granted with a reason, seen by the person on their profile.
    await page.getByTestId('admin-credits-amount').fill('50');
    await page.getByTestId('admin-credits-reason').fill('Sorry for the outage');
    await page.getByTestId('admin-credits-submit').click();
    await expect.poll(() => page.getByTestId('admin-user-balance').textContent()).toBe(String(before + 50));
    await page
      .getByTestId('admin-ledger')
      .getByText(`+50 → ${before + 50}`)
      .waitFor();
    const personBrowser = await browserFor(person);
    await personBrowser.page.goto(url('/profile/'));
    await expect
      .poll(() => personBrowser.page.getByTestId('profile-credits').textContent())
      .toBe(`${before + 50} credits`);
    await personBrowser.close();

    await screenshotInBothThemes(page, 'admin-user', 'admin-user-375');

    // Ban: the person's session ends and signing in again is refused with a clear message.
    await page.getByTestId('ban-actions-reason').fill('Fraudulent payments');
    await page.getByTestId('ban-actions-ban').click();
    await expect.poll(() => page.getByTestId('admin-user').getAttribute('data-banned')).toBe('true');
    expect((await callApi('/api/users/me/', { authorization: bearer(person) })).status).toBe(401);

    const guest = await openBrowser('phone', { size: { width: 375, height: 812 } });
    sessions.push(guest);
    await guest.page.goto(url('/'));
    await guest.page.getByTestId('header-sign-in').click();
    const panel = guest.page.getByTestId('sign-in-panel');
    await panel.getByLabel('Email').fill(person.email);
    await panel.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    await panel.getByRole('alert').getByText('This account has been banned').waitFor();
    await saveScreenshot(guest.page, 'admin-banned-sign-in-375-dark');

    // On the person's request: their data downloads as a ZIP after a reason and a confirmation.
    await page.getByTestId('export-actions-reason').fill('Asked by e-mail');
    await page.getByTestId('export-actions-export').click();
    await page.getByTestId('export-actions-confirm').waitFor();
    const download = page.waitForEvent('download');
    await page.getByTestId('export-actions-export').click();
    expect((await download).suggestedFilename()).toMatch(/\.zip$/);

    // Deleting works only once the e-mail is typed; the page then reads deleted.
    await page.getByTestId('delete-account-reason').fill('Asked by e-mail');
    const submit = page.getByTestId('delete-account-submit');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByTestId('delete-account-phrase').fill(person.email);
    await page.getByTestId('delete-account').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'admin-delete-account-375-light');
    await submit.click();
    await page.getByTestId('admin-user-deleted').waitFor();
    await saveScreenshot(page, 'admin-user-deleted-375-light');
  });
});

describe('console home and audit log', () => {
  it('an admin sees real counts on the dashboard and finds their actions in the audit log (360 px, ru and de)', async () => {
    const admin = await createActiveUser({ firstName: 'Dash', lastName: 'Board' });
    await grant(admin, 'admin');
    const maker = await createActiveUser();
    const generation = await apiGenerate(maker, { mode: 'simple', prompt: 'A lighthouse at dusk', seed: 5 });
    await apiWaitForGeneration(maker, generation.uuid);

    for (const [language, theme] of [
      ['ru', 'dark'],
      ['de', 'light'],
    ] as const) {
      const session = await openBrowser('phone', {
        size: { width: 360, height: 800 },
        locale: language,
        theme,
        colorScheme: theme,
      });
      sessions.push(session);
      await signInWithTokens(session.page, admin);
      await session.page.goto(url('/admin/'));
      await session.page.getByTestId('admin-dashboard').waitFor();
      const total = Number(
        await session.page.getByTestId('admin-chart-generations').getAttribute('data-total'),
      );
      expect(total).toBeGreaterThanOrEqual(1);
      // Today's generation shows in the cost and margin table, and the page still fits 360 px
      // (the wide tables scroll inside their own box).
      await session.page.getByTestId('admin-margin-today').getByText('local').first().waitFor();
      await session.page.getByTestId('admin-tile-active').waitFor();
      const pageWidth = await session.page.evaluate(() => document.documentElement.scrollWidth);
      expect(pageWidth).toBeLessThanOrEqual(360);
      await session.page.waitForLoadState('networkidle');
      await saveScreenshot(session.page, `admin-dashboard-360-${language}-${theme}`, true);
    }

    // A staff action, then the audit log filtered to this admin shows it.
    const changed = await callApi(`/api/admin/users/${maker.uuid}/credits/`, {
      body: { delta: 5, reason: 'Dashboard check', idempotency_key: `e2e-${maker.uuid}` },
      authorization: bearer(admin),
    });
    expect(changed.status).toBe(200);
    const { page } = await browserFor(admin, 'dark');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(url('/admin/audit/'));
    await page.getByTestId('audit-staff').fill(admin.uuid);
    await page.getByTestId('audit-apply').click();
    await page.locator('[data-action="credits.grant"]').getByText('Dashboard check').waitFor();
    await saveScreenshot(page, 'admin-audit-1280-dark', true);
    await page.goto(url('/admin/'));
    await page.getByTestId('admin-dashboard').waitFor();
    await page.waitForLoadState('networkidle');
    await saveScreenshot(page, 'admin-dashboard-1280-dark', true);
  });
});

describe('catalogue and prices', () => {
  it('an admin changes a price in the console (360 px, ru and de) and a signed-in user sees it at once', async () => {
    const admin = await createActiveUser({ firstName: 'Price', lastName: 'Setter' });
    await grant(admin, 'admin');
    const person = await createActiveUser();
    const user = await browserFor(person, 'light');
    await user.page.goto(url('/generate/editing/'));
    await expect.poll(() => user.page.getByTestId('price-cost').textContent()).toBe('1 credit');

    const before = await callApi<{ settings: Record<string, unknown> }>('/api/admin/pricing/', {
      authorization: bearer(admin),
    });
    expect(before.status).toBe(200);
    try {
      for (const [language, theme] of [
        ['de', 'light'],
        ['ru', 'dark'],
      ] as const) {
        const session = await openBrowser('phone', {
          size: { width: 360, height: 800 },
          locale: language,
          theme,
          colorScheme: theme,
        });
        sessions.push(session);
        await signInWithTokens(session.page, admin);
        await session.page.goto(url('/admin/pricing/'));
        await session.page.getByTestId('admin-pricing').waitFor();
        await session.page.waitForLoadState('networkidle');
        await saveScreenshot(session.page, `admin-pricing-360-${language}-${theme}`, true);
      }
      // The last (Russian) console changes the price of editing, with a reason and a confirmation.
      const { page } = sessions.at(-1)!;
      await page.getByTestId('pricing-prices.editing').fill('7');
      await page.getByTestId('pricing-reason').fill('Editing costs more');
      await page.getByTestId('pricing-save').click();
      await page.getByTestId('pricing-confirm').waitFor();
      await page.getByTestId('pricing-save').click();
      await page.getByText(/Версия \d+/).waitFor();
      await saveScreenshot(page, 'admin-pricing-360-ru-dark-saved', true);

      // The signed-in user opens the form again: the new price, no restart, no waiting.
      await user.page.goto(url('/generate/editing/'));
      await expect.poll(() => user.page.getByTestId('price-cost').textContent()).toBe('7 credits');
      const config = await callApi<{ prices: { editing: number } }>('/api/config/', {});
      expect(config.body.prices.editing).toBe(7);
    } finally {
      // Other specs run against the same server and its configured prices.
      const restored = await callApi('/api/admin/pricing/', {
        method: 'PUT',
        body: { ...before.body.settings, reason: 'e2e: back to the configured prices' },
        authorization: bearer(admin),
      });
      expect(restored.status).toBe(200);
    }
  });
});
