import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { createTestI18n } from '../../../test/i18n';
import { modelsApi } from '../../models/api/models.api';
import { ModelPicker } from './model-picker';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderPicker() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <ModelPicker value={null} onChange={() => undefined} enabled />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('model picker', () => {
  it('when my models cannot be read it says so with a retry, never "create a model" (a paid training)', async () => {
    const list = vi
      .spyOn(modelsApi, 'list')
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce({ results: [], next: null });
    renderPicker();
    await screen.findByRole('alert');
    expect(screen.queryByRole('link', { name: /create/i })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('link', { name: /create/i });
    expect(list).toHaveBeenCalledTimes(2);
  });
});
