import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { TNotificationPreferences } from '@mirra/contracts';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { useAppStore } from '../../../lib/app-store';
import { createTestI18n } from '../../../test/i18n';
import { notificationsApi } from '../api/notifications.api';
import { NotificationPreferences } from './notification-preferences';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('de');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  useAppStore.getState().clearTopinfo();
});

const prefs = (channels: TNotificationPreferences['channels']): TNotificationPreferences => ({
  channels,
  categories: [
    { category: 'subscribers', in_app: true, telegram: false, email: false },
    { category: 'models', in_app: true, telegram: true, email: false },
  ],
});

function renderPreferences() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <NotificationPreferences />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('notification preferences', () => {
  it('shows only the channels the account has', async () => {
    vi.spyOn(notificationsApi, 'preferences').mockResolvedValue(
      prefs({ in_app: true, telegram: false, email: true }),
    );
    renderPreferences();
    expect(await screen.findByText('In der App')).toBeTruthy();
    expect(screen.getByText('E-Mail')).toBeTruthy();
    expect(screen.queryByText('Telegram-Bot')).toBeNull();
    expect(screen.queryByTestId('pref-models-telegram')).toBeNull();
    expect((screen.getByTestId('pref-models-in_app') as HTMLInputElement).checked).toBe(true);
  });

  it('flips a switch at once, sends the change, and keeps it when saved', async () => {
    vi.spyOn(notificationsApi, 'preferences').mockResolvedValue(
      prefs({ in_app: true, telegram: true, email: false }),
    );
    const update = vi
      .spyOn(notificationsApi, 'updatePreferences')
      .mockResolvedValue(prefs({ in_app: true, telegram: true, email: false }));
    renderPreferences();
    const sw = (await screen.findByTestId('pref-models-telegram')) as HTMLInputElement;
    fireEvent.click(sw);
    expect(sw.checked).toBe(false);
    expect(update).toHaveBeenCalledWith([{ category: 'models', channel: 'telegram', enabled: false }]);
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect((screen.getByTestId('pref-models-telegram') as HTMLInputElement).checked).toBe(false);
  });

  it('puts the switch back and says so in the reader’s language when the change is not saved', async () => {
    vi.spyOn(notificationsApi, 'preferences').mockResolvedValue(
      prefs({ in_app: true, telegram: true, email: false }),
    );
    let fail!: (error: Error) => void;
    vi.spyOn(notificationsApi, 'updatePreferences').mockReturnValue(
      new Promise((_resolve, reject) => {
        fail = reject;
      }),
    );
    renderPreferences();
    const sw = (await screen.findByTestId('pref-subscribers-in_app')) as HTMLInputElement;
    fireEvent.click(sw);
    expect(sw.checked).toBe(false);
    fail(new Error('offline'));
    await waitFor(() =>
      expect((screen.getByTestId('pref-subscribers-in_app') as HTMLInputElement).checked).toBe(true),
    );
    expect(useAppStore.getState().topinfo).toMatchObject({
      type: 'error',
      text: 'Die Änderung konnte nicht gespeichert werden. Bitte versuche es erneut.',
    });
  });
});
