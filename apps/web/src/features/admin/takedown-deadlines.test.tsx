import type { TAdminReportedPost, TTakedownDeadlineState } from '@mirra/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../test/i18n';
import { adminApi } from './api/admin.api';
import { TakedownDeadlines } from './components/takedown-deadlines';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A queue entry as the server sends it; only what the home reads is filled in. */
function entry(title: string, state: TTakedownDeadlineState | null): TAdminReportedPost {
  return {
    post: { uuid: crypto.randomUUID(), title, prompt: '' },
    deadline_at: state ? '2026-12-01T08:00:00.000Z' : null,
    deadline_state: state,
    takedowns: [],
    reports: [],
  } as unknown as TAdminReportedPost;
}

async function showHome(language: string, results: TAdminReportedPost[]) {
  vi.spyOn(adminApi, 'reports').mockResolvedValue({ results });
  const i18n = await createTestI18n(language);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <TakedownDeadlines />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('console home: takedown deadlines', () => {
  it('lists the takedowns whose deadline is near or missed, not those on time or without one', async () => {
    await showHome('ru', [
      entry('Пропущен', 'missed'),
      entry('Скоро', 'near'),
      entry('Успеваем', 'on_time'),
      entry('Жалоба', null),
    ]);
    const box = await screen.findByTestId('takedown-deadlines');
    expect(box.textContent).toContain('Сроки запросов на удаление');
    expect(box.textContent).toContain('Пропущен');
    expect(box.textContent).toContain('Срок пропущен');
    expect(box.textContent).toContain('Скоро');
    expect(box.textContent).toContain('Срок близко');
    expect(box.textContent).not.toContain('Успеваем');
    expect(box.textContent).not.toContain('Жалоба');
  });

  it('shows nothing while every deadline is far', async () => {
    await showHome('en', [entry('Fine', 'on_time')]);
    await waitFor(() => expect(adminApi.reports).toHaveBeenCalled());
    expect(screen.queryByTestId('takedown-deadlines')).toBeNull();
  });
});
