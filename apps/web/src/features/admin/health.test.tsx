import type { TAdminHealth } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Page as AdminPage } from '../../app/routes/admin';
import { createTestI18n } from '../../test/i18n';
import { adminApi } from './api/admin.api';

// The console's texts are in the test catalogue already; its own loader needs the app's i18next.
vi.mock('./admin-catalogue', () => ({
  useAdminCatalogue: () => ({ ready: true, failed: false, retry() {} }),
}));

const HEALTH: TAdminHealth = {
  status: 'unavailable',
  checks: { database: 'ok', queue: 'ok', storage: 'failed', engines: 'ok' },
  failed: ['storage'],
  providers: { replicate: 'down', fal: 'configured' },
  engines: { simple: ['fal', 'replicate', 'local'], video: ['local'] },
  queue: { depth: 3, oldest_seconds: 95.4 },
  webhook_errors: [{ source: 'stripe', reason: 'bad_signature', count: 2 }],
  storage: { kind: 's3' },
  checked_at: '2026-11-28T15:00:00.000Z',
};

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function open(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/admin/*" element={<AdminPage />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('the console health page', () => {
  it('opens at /admin/health/ (not the overview) with readiness, queue, engines, webhook errors and storage', async () => {
    vi.spyOn(adminApi, 'me').mockResolvedValue({ role: 'admin' } as Awaited<ReturnType<typeof adminApi.me>>);
    const dashboard = vi.spyOn(adminApi, 'dashboard');
    vi.spyOn(adminApi, 'health').mockResolvedValue(HEALTH);
    open('/admin/health/');
    const page = await screen.findByTestId('admin-health');
    expect(dashboard).not.toHaveBeenCalled();
    expect(page.getAttribute('data-status')).toBe('unavailable');
    expect(within(page).getByText('Not ready: a check fails')).toBeTruthy();
    expect(screen.getByTestId('admin-health-check-storage').getAttribute('data-state')).toBe('failed');
    expect(screen.getByTestId('admin-health-queue-depth').textContent).toBe('3');
    expect(screen.getByTestId('admin-health-queue-oldest').textContent).toBe('95 seconds');
    expect(screen.getByTestId('admin-health-provider-replicate').textContent).toBe('Down');
    expect(within(page).getByText('fal → replicate → local')).toBeTruthy();
    expect(screen.getByTestId('admin-health-webhook-error').textContent).toBe('stripe · bad_signature2');
    expect(within(page).getByText('S3-compatible bucket')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Health' }).className).toContain('is-active');
  });
});
