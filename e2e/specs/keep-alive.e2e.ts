import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActiveUser } from '../lib/accounts.js';
import { openBrowser, url, VIEWPORT_NAMES, type Session } from '../lib/browser.js';
import { signInWithTokens } from '../lib/session.js';

describe.each(VIEWPORT_NAMES)('kept-alive pages (%s)', (viewport) => {
  let s: Session;
  beforeEach(async () => {
    s = await openBrowser(viewport);
  });
  afterEach(async () => {
    await s.close();
  });

  it('/upload/ keeps what the user chose when they leave and come back', async () => {
    const { page } = s;
    const user = await createActiveUser({ firstName: 'Mary', lastName: 'Jackson' });
    await signInWithTokens(page, user);
    await page.goto(url('/upload/'));
    const upload = page.getByTestId('upload-page');
    await upload.waitFor();
    const male = upload.getByRole('radio', { name: 'Male', exact: true });
    await male.click();
    expect(await male.getAttribute('aria-checked')).toBe('true');

    // Leave in-app (a full reload would rightly forget everything), then come back.
    await page.getByTestId('header-profile').click();
    await page.waitForURL(url('/profile/'));
    await page.getByTestId('profile-page').waitFor();
    expect(await upload.isVisible()).toBe(false);
    await page.goBack();
    await page.waitForURL(url('/upload/'));
    await upload.waitFor();
    expect(await upload.getByRole('radio', { name: 'Male', exact: true }).getAttribute('aria-checked')).toBe(
      'true',
    );
    // One instance of the page, not a second copy.
    expect(await page.getByTestId('upload-page').count()).toBe(1);
  });
});
