import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { authKeys } from '../features/auth/hooks/use-public-config';

/** /api/config/ of a server with no sign-in providers, every mode offered; tests override parts. */
export const BASE_PUBLIC_CONFIG = {
  google_client_id: null,
  telegram_bot_username: null,
  telegram_mini_app_name: null,
  public_url: 'http://mirra.test',
  support_telegram_url: null,
  support_email: null,
  error_reporting: null,
  unavailable_modes: [] as string[],
};

/**
 * Renders at `path` with the server's public config already answered (`null`: not answered yet),
 * the app's translations and a router.
 */
export function renderWithPublicConfig(
  ui: ReactNode,
  { path, i18n, config }: { path: string; i18n: I18n; config: Record<string, unknown> | null },
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  if (config) client.setQueryData(authKeys.config, { ...BASE_PUBLIC_CONFIG, ...config });
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}
