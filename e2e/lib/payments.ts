import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { callApi, type TestUser } from './accounts.js';
import { url } from './browser.js';
import { apiGenerate, apiUpload, makeTestPhoto } from './generations.js';
import { signInWithTokens } from './session.js';

/** Sets the person's payment region from the API, as the purchase sheet's "change region" would. */
export async function chooseRegion(user: TestUser, region: 'ru' | 'intl'): Promise<void> {
  const answer = await callApi('/api/payments/region/', {
    method: 'PUT',
    body: { region },
    authorization: `Bearer ${user.access}`,
  });
  expect(answer.status).toBe(200);
}

/** Spends a new account's welcome credits (4) down to 1 with a styling (3) from the API. */
export async function spendCreditsToOne(user: TestUser, seed = 2): Promise<void> {
  const photo = await apiUpload(user, await makeTestPhoto());
  await apiGenerate(user, { mode: 'styling', style: 'pencil', images: [photo.uuid], seed });
}

/**
 * On the styling form (already open): a photo, a style and a prompt, then "generate" — which costs
 * 3, so with 1 credit left the credit balance dialog opens.
 */
export async function askForStylingWithoutCredits(page: Page): Promise<void> {
  await page.getByTestId('photo-input').setInputFiles({
    name: 'photo.jpg',
    mimeType: 'image/jpeg',
    buffer: await makeTestPhoto(),
  });
  await page.getByTestId('photo-preview').waitFor();
  await page.getByTestId('style-oil').click();
  await page.getByTestId('prompt').fill('Soft evening light');
  await page.getByTestId('generate-submit').click();
  await page.getByTestId('credits-dialog').waitFor();
}

/** A new account down to 1 credit, signed in on the styling form, with the balance dialog open. */
export async function runOutOfCredits(page: Page, user: TestUser): Promise<void> {
  await spendCreditsToOne(user);
  await signInWithTokens(page, user);
  await page.goto(url('/generate/styling/'));
  await askForStylingWithoutCredits(page);
}

/** From the credit balance dialog: "buy more" opens the purchase sheet. */
export async function openPurchaseSheet(page: Page): Promise<void> {
  await page.getByTestId('credits-buy-more').click();
  await page.getByTestId('purchase-sheet').waitFor();
}

/** Ticks the offer and privacy boxes every payment form has. */
export async function tickConsent(page: Page): Promise<void> {
  await page.getByTestId('consent-offer').check();
  await page.getByTestId('consent-privacy').check();
}

/** On Mirra's test checkout page (it says no money moves): pay, or decline. */
export async function payOnTestCheckout(page: Page, action: 'pay' | 'decline' = 'pay'): Promise<void> {
  await page.waitForURL(/\/api\/payments\/test\/checkout\/[0-9a-f-]{36}\/\?token=[0-9a-f]{32}$/);
  expect(await page.getByTestId('test-payment-banner').isVisible()).toBe(true);
  await page.locator(`button[data-action="${action}"]`).click();
}
