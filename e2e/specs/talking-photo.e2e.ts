import { speechSecondsOf } from '@mirra/contracts';
import { describe, expect, it } from 'vitest';
import { createActiveUser } from '../lib/accounts.js';
import { openBrowser, saveScreenshot, url } from '../lib/browser.js';
import { signInWithTokens } from '../lib/session.js';

describe('the talking-photo form at 360 px', () => {
  it('ru light and en dark: the language of the speech, the price by its seconds, and recording refused gracefully without a microphone', async () => {
    const user = await createActiveUser({ firstName: 'Grace', lastName: 'Hopper' });
    for (const { language, theme, text, said } of [
      { language: 'ru', theme: 'light', text: 'Привет! Сегодня прекрасный день, правда?', said: /микрофон/i },
      {
        language: 'en',
        theme: 'dark',
        text: 'Hello! What a wonderful day it is today.',
        said: /microphone/i,
      },
    ] as const) {
      // Launched without Chromium's fake media switches: this browser has no microphone.
      const s = await openBrowser('phone', {
        size: { width: 360, height: 780 },
        locale: language,
        theme,
        colorScheme: theme,
      });
      try {
        const { page } = s;
        await signInWithTokens(page, user);
        await page.goto(url('/generate/talking_photo/'));
        await page.getByTestId('speech-fields').waitFor();
        // The speech is in the app's language unless another is chosen.
        expect(await page.getByTestId(`speech-language-${language}`).getAttribute('aria-checked')).toBe(
          'true',
        );

        // The price asked for is the text's seconds of speech (more than an empty text's).
        const [quote] = await Promise.all([
          page.waitForRequest(
            (r) =>
              new URL(r.url()).pathname === '/api/generations/price/' &&
              new URL(r.url()).searchParams.get('duration') === String(speechSecondsOf(text, language)),
          ),
          page.getByTestId('prompt').fill(text),
        ]);
        expect(new URL(quote.url()).searchParams.get('mode')).toBe('talking_photo');
        // Said in its own language: no 'only in English' here.
        expect(await page.getByTestId('prompt-error').count()).toBe(0);
        await page.getByTestId('price-cost').waitFor();

        // Recording: no microphone here, said in the person's language; the text stays.
        await page.getByTestId('voice-record').click();
        const unavailable = page.getByTestId('voice-unavailable');
        await unavailable.waitFor();
        expect(await unavailable.textContent()).toMatch(said);
        expect(await page.getByTestId('prompt').inputValue()).toBe(text);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        await unavailable.scrollIntoViewIfNeeded();
        await saveScreenshot(page, `talking-photo-${language}-${theme}-360`);
        expect(s.errors).toEqual([]);
      } finally {
        await s.close();
      }
    }
  }, 180_000);
});
