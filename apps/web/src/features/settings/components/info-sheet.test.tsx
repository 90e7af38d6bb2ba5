import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test/i18n';
import { InfoSheet, type SupportContactsConfig } from './info-sheet';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(cleanup);

function renderSupport(support: SupportContactsConfig | undefined) {
  return render(
    <I18nextProvider i18n={i18n}>
      <InfoSheet topic="support" onClose={() => undefined} support={support} />
    </I18nextProvider>,
  );
}

describe('the Support sheet', () => {
  it('links to the configured Telegram contact and email address', async () => {
    renderSupport({ telegramUrl: 'https://t.me/mirra_help', email: 'help@mirra.example' });
    expect((await screen.findByTestId('support-telegram')).getAttribute('href')).toBe(
      'https://t.me/mirra_help',
    );
    expect(screen.getByTestId('support-email').getAttribute('href')).toBe('mailto:help@mirra.example');
    expect(screen.queryByTestId('support-none')).toBeNull();
  });

  it('offers only what is configured', async () => {
    renderSupport({ telegramUrl: null, email: 'help@mirra.example' });
    await screen.findByTestId('support-email');
    expect(screen.queryByTestId('support-telegram')).toBeNull();
  });

  it('says plainly that no contact is set up instead of showing a button that leads nowhere', async () => {
    renderSupport({ telegramUrl: null, email: null });
    expect((await screen.findByTestId('support-none')).textContent).toMatch(/not set up/);
    expect(screen.queryAllByRole('link')).toEqual([]);
  });
});

describe('the Features sheet', () => {
  it('credits the emoji art the offline drawings use, with its licence', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <InfoSheet topic="features" onClose={() => undefined} support={undefined} />
      </I18nextProvider>,
    );
    const credits = (await screen.findByTestId('features-art-credits')).textContent ?? '';
    expect(credits).toMatch(/Fluent Emoji/);
    expect(credits).toMatch(/MIT/);
  });
});
