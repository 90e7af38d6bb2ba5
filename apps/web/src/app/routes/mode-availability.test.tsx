import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authKeys } from '../../features/auth/hooks/use-public-config';
import { createTestI18n } from '../../test/i18n';
import { Page as Create } from './create';
import { Page as Generate } from './generate';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(cleanup);

function renderWithConfig(path: string, unavailable: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(authKeys.config, {
    google_client_id: null,
    telegram_bot_username: null,
    telegram_mini_app_name: null,
    public_url: 'http://mirra.test',
    support_telegram_url: null,
    support_email: null,
    error_reporting: null,
    unavailable_modes: unavailable,
  });
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/create/" element={<Create />} />
            <Route path="/generate/:mode/" element={<Generate />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('modes no engine can make', () => {
  it('are not offered on the create screen', async () => {
    renderWithConfig('/create/', ['editing']);
    await screen.findByTestId('mode-simple');
    expect(screen.queryByTestId('mode-editing')).toBeNull();
    expect(screen.getByTestId('mode-styling')).toBeTruthy();
  });

  it('open a plain message instead of a form with a price', async () => {
    renderWithConfig('/generate/video/', ['video']);
    expect((await screen.findByTestId('mode-unavailable')).textContent).toContain(
      'This mode is not available right now',
    );
    expect(screen.queryByTestId('generate-submit')).toBeNull();
  });
});
