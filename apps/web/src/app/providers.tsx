import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { forgetGenerationDrafts } from '../features/generations';
import { queryClient } from '../lib/query-client';
import { useSession } from '../lib/session';

// Signing out (or in as someone else) forgets what was read for the last person: their drafts,
// notifications, balance and saved flags must never show to the next one.
useSession.subscribe((state, previous) => {
  if (previous.user && state.user?.id !== previous.user.id) {
    queryClient.clear();
    forgetGenerationDrafts();
  }
});

export function Providers({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}
