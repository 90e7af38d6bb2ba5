import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, PASSWORD, readActivationLink, uniqueEmail } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { storedTokens } from '../lib/session.js';

describe.each(VIEWPORT_NAMES)('an account from sign-up to sign-out (%s)', (viewport) => {
  let s: Session;
  beforeEach(async () => {
    s = await openBrowser(viewport);
  });
  afterEach(async () => {
    await s.close();
  });

  it('signs up from a page that needs an account, is signed in by the activation link and returned there, signs out and back in, edits the profile, switches language and theme, signs out', async () => {
    const { page } = s;
    const email = uniqueEmail('ada');

    // A guest opens a page that needs an account: the sign-in popup offers to create one, and the
    // sign-up page remembers where the person started.
    await page.goto(url('/settings/'));
    await page.getByTestId('sign-in-panel').waitFor();
    await page.getByTestId('sign-up-link').click();
    await page.waitForURL(url('/sign-up/?next=%2Fsettings%2F'));

    // Sign up; the server's password rules come back per field, joined with ", ". (On a phone the
    // popup may still be closing, so the fields are looked up inside the form.)
    const signUp = page.getByTestId('sign-up-form');
    await signUp.getByLabel('First name').fill('Ada');
    await signUp.getByLabel('Last name').fill('Lovelace');
    await signUp.getByLabel('Email').fill(email);
    await signUp.getByLabel('Password', { exact: true }).fill('12345');
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => signUp.locator('.field--invalid .field__error').textContent())
      .toBe(
        'This password is too short. It must contain at least 8 characters., This password is too common., This password is entirely numeric.',
      );
    await signUp.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('sign-up-done').waitFor();
    expect(await page.getByTestId('sign-up-done').textContent()).toContain(email);
    expect((await storedTokens(page)).refresh).toBeNull();

    // The activation link from the real .eml file in the outbox signs the person in, shows the new
    // account its onboarding once, and then takes them back to the page they started from.
    const link = await readActivationLink(email);
    expect(link).toMatch(/\/activate\/[^/]+\/[^/]+$/);
    await page.goto(link);
    await page.waitForURL(url(`/welcome/?next=${encodeURIComponent('/settings/')}`));
    await page.getByTestId('welcome-page').waitFor();
    await saveScreenshot(page, `flow-welcome-${viewport}`);
    await page.getByTestId('welcome-skip').click();
    await page.waitForURL(url('/settings/'));
    await page.getByText('Your account is active').waitFor();
    await page.getByTestId('header-profile').waitFor();
    expect((await storedTokens(page)).refresh).toBeTruthy();
    await saveScreenshot(page, `flow-activated-${viewport}`);

    // The link works once: opened again it says the account is active already.
    await page.goto(link);
    await page.getByText('Already activated').waitFor();

    // Signed out, then in again from the popup: a wrong password is an alert, the email is trimmed
    // and lower-cased.
    await page.goto(url('/settings/'));
    await page.getByTestId('sign-out').click();
    await page.waitForURL(url('/'));
    await page.getByTestId('header-sign-in').click();
    const panel = page.getByTestId('sign-in-panel');
    await panel.getByLabel('Email').fill(`  ${email.toUpperCase()}  `);
    await panel.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    await panel.getByRole('alert').getByText('Wrong email or password').waitFor();
    await panel.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByTestId('header-profile').waitFor();
    expect((await storedTokens(page)).refresh).toBeTruthy();

    // Profile, then edit and save; a bad username is shown under its field.
    await page.getByTestId('header-profile').click();
    await page.waitForURL(url('/profile/'));
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Ada Lovelace');
    await page.getByTestId('profile-edit-link').click();
    await page.waitForURL(url('/profile-edit/'));
    const form = page.getByTestId('profile-edit-form');
    await form.getByLabel('First name').fill('Augusta Ada');
    await form.getByLabel('Username').fill('no');
    await page.getByTestId('profile-save').click();
    await form.getByText('Use 3 to 32 letters, digits, dots or underscores.').waitFor();
    const username = `ada_${Date.now().toString(36)}`;
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Phone').fill('+44 20 7946 0958');
    await form.getByLabel('Instagram').fill('@ada.codes');
    await page.getByTestId('profile-save').click();
    await page.waitForURL(url('/profile/'));
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('Augusta Ada Lovelace');
    expect(await page.getByTestId('profile-card').textContent()).toContain(`@${username}`);

    // Settings: language (stored as django_language, sent as Accept-Language, saved on the server).
    await page.goto(url('/settings/'));
    await page.getByTestId('settings-language').click();
    await page.waitForURL(url('/settings/language/'));
    await page.getByTestId('language-de').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect((await storedTokens(page)).language).toBe('de');
    await expect.poll(() => page.title()).toBe('Sprache · Mirra');
    const { access } = await storedTokens(page);
    await expect
      .poll(
        async () =>
          (await callApi<{ language: string }>('/api/users/me/', { authorization: `Bearer ${access}` })).body
            .language,
      )
      .toBe('de');

    // Theme: light, stored in the theme cookie for a year, applied at once.
    await page.goto(url('/settings/theme/'));
    await page.getByTestId('theme-light').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    const themeCookie = (await s.context.cookies()).find((c) => c.name === 'theme');
    expect(themeCookie?.value).toBe('light');
    expect(themeCookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 86400_000);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.getByText('Hell').first().waitFor();
    await saveScreenshot(page, `flow-theme-light-de-${viewport}`);

    // Sign out: tokens gone, back home as a guest.
    await page.goto(url('/settings/'));
    await page.getByTestId('sign-out').click();
    await page.waitForURL(url('/'));
    await page.getByTestId('header-sign-in').waitFor();
    const after = await storedTokens(page);
    expect(after.refresh).toBeNull();
    expect(after.access).toBeNull();
    expect(s.errors).toEqual([]);
  });
});
