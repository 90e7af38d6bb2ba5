import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GenerationStatus } from '@mirra/contracts';
import type { TGeneration, TUpload } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { generationsApi } from '../api/generations.api';
import { GenerationFailure } from '../components/generation-failure';
import { modeNeeds } from '../generation-draft';
import { useGenerationDraft } from './use-generation-draft';
import { useRetryInputs } from './use-retry-inputs';

const PHOTO: TUpload = {
  uuid: '00000000-0000-4000-8000-00000000a001',
  url: '/m/upload/a001.jpg',
  width: 800,
  height: 600,
  content_type: 'image/jpeg',
  bytes: 12345,
};

/** An edit the engine did not understand, refunded. */
const FAILED_EDIT = {
  uuid: '00000000-0000-4000-8000-000000000e01',
  mode: 'editing',
  status: GenerationStatus.FAILED,
  progress: 40,
  prompt: 'make it prettier somehow',
  guidance: 9.5,
  seed: 4242,
  style: null,
  images: [PHOTO.uuid],
  model_uuid: null,
  post_uuid: null,
  cost: 3,
  created_at: '2026-11-24T10:00:00.000Z',
  finished_at: '2026-11-24T10:00:05.000Z',
  result: null,
  error_code: 'generations.bad_input',
  error_detail: 'The editor did not understand the instruction.',
  error_reason: null,
  refunded: true,
} as unknown as TGeneration;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('trying a failed generation again', () => {
  it('"Try again" on a failure opened from anywhere leads to the form of that generation', async () => {
    const i18n = await createTestI18n('en');
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[`/generation/${FAILED_EDIT.uuid}/`]}>
          <GenerationFailure generation={FAILED_EDIT} />
        </MemoryRouter>
      </I18nextProvider>,
    );
    expect(screen.getByTestId('failure-retry').getAttribute('href')).toBe(
      `/generate/editing/generation/${FAILED_EDIT.uuid}/`,
    );
  });

  it('the form opens with the same photo, prompt and settings', async () => {
    const getUpload = vi.spyOn(generationsApi, 'getUpload').mockResolvedValue(PHOTO);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => {
        const { draft, update } = useGenerationDraft(`/generate/editing/generation/${FAILED_EDIT.uuid}/`);
        const retry = useRetryInputs({
          generation: FAILED_EDIT,
          mode: 'editing',
          draft,
          update,
          wantsPhoto: modeNeeds('editing').photo && !draft.photo,
        });
        return { draft, retry };
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.draft.photo).toEqual(PHOTO));
    expect(getUpload).toHaveBeenCalledWith(PHOTO.uuid);
    expect(result.current.draft).toMatchObject({
      prompt: 'make it prettier somehow',
      guidance: 9.5,
      seed: '4242',
      style: null,
    });
    expect(result.current.retry).toMatchObject({ isRetry: true, isPreparing: false, isUnavailable: false });
  });

  it('a completed result is not a retry: its picture is the new source, not its inputs', async () => {
    const getUpload = vi.spyOn(generationsApi, 'getUpload').mockResolvedValue(PHOTO);
    const completed = { ...FAILED_EDIT, status: GenerationStatus.COMPLETED } as TGeneration;
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => {
        const { draft, update } = useGenerationDraft('/generate/editing/generation/x/');
        return {
          draft,
          retry: useRetryInputs({ generation: completed, mode: 'editing', draft, update, wantsPhoto: true }),
        };
      },
      { wrapper },
    );
    expect(result.current.retry.isRetry).toBe(false);
    expect(result.current.draft.prompt).toBe('');
    expect(getUpload).not.toHaveBeenCalled();
  });
});
