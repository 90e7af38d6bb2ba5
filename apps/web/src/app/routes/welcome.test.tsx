import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authKeys } from '../../features/auth/hooks/use-public-config';
import { createTestI18n } from '../../test/i18n';
import { Page as Welcome } from './welcome';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(cleanup);

function renderWelcome(ai: boolean | 'loading') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  if (ai !== 'loading') {
    client.setQueryData(authKeys.config, {
      google_client_id: null,
      telegram_bot_username: null,
      telegram_mini_app_name: null,
      public_url: 'http://mirra.test',
      support_telegram_url: null,
      support_email: null,
      error_reporting: null,
      unavailable_modes: [],
      engines: { simple: { engine: ai ? 'fal' : 'local', ai } },
    });
  }
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/welcome/']}>
          <Welcome />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('the onboarding', () => {
  it('promises an AI studio only where an AI engine serves', () => {
    renderWelcome(true);
    expect(screen.getByRole('heading').textContent).toBe('Your AI photo studio');
  });

  it('says pictures are made offline, not by AI, on a server that draws them itself or before it has said', () => {
    for (const ai of [false, 'loading'] as const) {
      renderWelcome(ai);
      const page = screen.getByTestId('welcome-page').textContent ?? '';
      expect(page).not.toMatch(/\bAI photo studio\b/);
      expect(page).toContain('not by an AI model');
      cleanup();
    }
  });
});
