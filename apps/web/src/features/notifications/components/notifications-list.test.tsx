import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import type { TNotification, TNotificationList } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { notificationsApi } from '../api/notifications.api';
import { NotificationsList } from './notifications-list';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
beforeEach(() => {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const subscriber = (id: number, read: boolean): TNotification => ({
  id,
  kind: 'new_subscriber',
  data: { user_name: `Person ${id}` },
  read,
  created_at: '2026-11-01T10:00:00.000Z',
});

function page(items: TNotification[]): TNotificationList {
  return { results: items, next: null, unread: items.filter((item) => !item.read).length };
}

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
function renderList(queryClient: QueryClient) {
  return render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <NotificationsList />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('notifications', () => {
  it('marks read exactly the ones shown, and a second visit reads the list afresh before marking', async () => {
    const list = vi
      .spyOn(notificationsApi, 'list')
      .mockResolvedValueOnce(page([subscriber(3, false), subscriber(2, true), subscriber(1, false)]))
      .mockResolvedValueOnce(page([subscriber(4, false), subscriber(3, true), subscriber(2, true)]));
    const markRead = vi.spyOn(notificationsApi, 'markRead').mockResolvedValue({ unread: 0 });
    const queryClient = client();

    const first = renderList(queryClient);
    await waitFor(() => expect(markRead).toHaveBeenCalledTimes(1));
    expect(markRead).toHaveBeenLastCalledWith([3, 1]);
    first.unmount();

    // Back within seconds: a new subscriber arrived meanwhile; the cached page does not have it.
    renderList(queryClient);
    await screen.findByText(/Person 4/);
    await waitFor(() => expect(markRead).toHaveBeenCalledTimes(2));
    expect(markRead).toHaveBeenLastCalledWith([4]);
    expect(list).toHaveBeenCalledTimes(2);
  });
});
