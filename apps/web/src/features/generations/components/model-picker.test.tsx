import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import { createTestI18n } from '../../../test/i18n';
import { modelsApi } from '../../models/api/models.api';
import { useState } from 'react';
import { EngineLine } from './engine-line';
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

describe('the engine line with the chosen model', () => {
  const model = (overrides: object) => ({
    uuid: '7a0c2b1e-3f4d-4c5b-8a6e-9d0f1e2a3b4c',
    name: 'Me',
    category: 'female',
    status: 100,
    progress: 100,
    reference_count: 15,
    photo_count: 15,
    min_photos: 15,
    cost: 20,
    training_price: 20,
    training_seconds: 300,
    cover_url: null,
    created_at: '2030-01-01T00:00:00.000Z',
    trained_at: null,
    error_code: null,
    error_detail: null,
    ...overrides,
  });

  function PickerWithLine() {
    const [value, setValue] = useState<string | null>(null);
    return (
      <>
        <ModelPicker value={value} onChange={setValue} enabled />
        <EngineLine mode="face_swap" modelUuid={value} />
      </>
    );
  }

  function renderBoth() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(['config'], {
      engines: { face_swap: { ai: true, abilities: ['ai_model', 'photorealistic'] } },
    });
    return render(
      <QueryClientProvider client={client}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <PickerWithLine />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
  }

  it('a model in training can be chosen, and the line says its likeness is instant, with when the trained one is ready', async () => {
    vi.spyOn(modelsApi, 'list').mockResolvedValue({
      results: [model({ status: 60, progress: 40 })],
      next: null,
    } as never);
    renderBoth();
    const line = await screen.findByTestId('likeness-line');
    expect(line.getAttribute('data-likeness')).toBe('instant');
    // 60 % of a 5-minute training left: about 3 minutes.
    expect(line.textContent).toBe(
      'Instant likeness from your photos — your trained model will be ready in ~3 min.',
    );
    const option = screen.getByTestId('model-option');
    expect(option.hasAttribute('disabled')).toBe(false);
    expect(option.getAttribute('aria-checked')).toBe('true');
  });

  it('a trained model is said to make the likeness', async () => {
    vi.spyOn(modelsApi, 'list').mockResolvedValue({ results: [model({})], next: null } as never);
    renderBoth();
    const line = await screen.findByTestId('likeness-line');
    expect(line.getAttribute('data-likeness')).toBe('trained');
  });
});
