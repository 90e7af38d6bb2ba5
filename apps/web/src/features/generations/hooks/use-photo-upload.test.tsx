import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { i18n as I18n } from 'i18next';
import type { TUpload } from '../../../lib/api-types';
import { createTestI18n } from '../../../test/i18n';
import { generationsApi } from '../api/generations.api';
import { usePhotoUpload } from './use-photo-upload';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const wrapper = ({ children }: { children: ReactNode }) => (
  <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
);

describe('photo upload', () => {
  it('a chosen photo that failed to upload goes up again on "Try again"', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:photo');
    URL.revokeObjectURL = vi.fn();
    const stored = { uuid: 'u1', url: '/media/u1', width: 10, height: 10 } as TUpload;
    const upload = vi
      .spyOn(generationsApi, 'upload')
      .mockRejectedValueOnce(new TypeError('offline'))
      .mockResolvedValueOnce(stored);
    const onUploaded = vi.fn();
    const { result } = renderHook(() => usePhotoUpload({ isLoggedIn: true, onUploaded }), { wrapper });
    const blob = new File(['picture'], 'photo.png', { type: 'image/png' });

    act(() => result.current.choose(blob));
    await vi.waitFor(() => expect(result.current.state.status).toBe('failed'));
    expect(result.current.state).toMatchObject({ status: 'failed', canRetry: true });
    await act(async () => result.current.retry());
    expect(upload).toHaveBeenCalledTimes(2);
    expect(upload.mock.calls[1]![0]).toBe(blob);
    expect(onUploaded).toHaveBeenCalledWith(stored);
    expect(result.current.state).toEqual({ status: 'idle' });
  });
});
