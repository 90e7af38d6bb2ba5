import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TUpload } from '../../../lib/api-types';
import { generationsApi } from '../api/generations.api';
import { isAcceptedPhoto, uploadErrorMessage } from '../../../lib/upload-errors';

export type PhotoUploadState =
  | { status: 'idle' }
  /** A guest chose a photo: it is uploaded as soon as they sign in. */
  | { status: 'waiting'; preview: string }
  | { status: 'uploading'; preview: string | null; progress: number }
  | { status: 'failed'; preview: string | null; message: string; canRetry: boolean };

/**
 * Uploads the source photo with a real progress bar (XMLHttpRequest reports upload progress) and
 * a clear message when it fails. `onUploaded` receives the stored photo.
 */
export function usePhotoUpload(options: { isLoggedIn: boolean; onUploaded(upload: TUpload): void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<PhotoUploadState>({ status: 'idle' });
  const pending = useRef<{ blob: Blob; name: string } | null>(null);
  const controller = useRef<AbortController | null>(null);
  const previewUrl = useRef<string | null>(null);
  // One local preview at a time: the previous one is released.
  const newPreview = useCallback((blob: Blob) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = URL.createObjectURL(blob);
    return previewUrl.current;
  }, []);
  const onUploaded = useRef(options.onUploaded);
  useEffect(() => {
    onUploaded.current = options.onUploaded;
  });

  const start = useCallback(
    async (blob: Blob, name: string, preview: string | null) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setState({ status: 'uploading', preview, progress: 0 });
      try {
        const upload = await generationsApi.upload(blob, name, {
          signal: current.signal,
          onProgress: (progress) => setState((s) => (s.status === 'uploading' ? { ...s, progress } : s)),
        });
        if (current.signal.aborted) return;
        pending.current = null;
        setState({ status: 'idle' });
        onUploaded.current(upload);
      } catch (error) {
        if (current.signal.aborted) return;
        setState({ status: 'failed', preview, message: uploadErrorMessage(t, error), canRetry: true });
      }
    },
    [t],
  );

  const choose = useCallback(
    (file: File) => {
      if (!isAcceptedPhoto(file)) {
        setState({
          status: 'failed',
          preview: null,
          message: t('errors.uploads.unsupported_type'),
          canRetry: false,
        });
        return;
      }
      const preview = newPreview(file);
      pending.current = { blob: file, name: file.name };
      if (!options.isLoggedIn) {
        setState({ status: 'waiting', preview });
        return;
      }
      void start(file, file.name, preview);
    },
    [options.isLoggedIn, start, newPreview, t],
  );

  // A guest's photo goes up once they have signed in (nothing chosen is lost).
  const isWaiting = state.status === 'waiting';
  useEffect(() => {
    if (isWaiting && options.isLoggedIn && pending.current) {
      const { blob, name } = pending.current;
      void start(blob, name, newPreview(blob));
    }
  }, [isWaiting, options.isLoggedIn, start, newPreview]);

  useEffect(
    () => () => {
      controller.current?.abort();
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );

  return {
    state,
    choose,
    retry: useCallback(() => {
      if (pending.current) void start(pending.current.blob, pending.current.name, null);
    }, [start]),
    reset: useCallback(() => {
      controller.current?.abort();
      pending.current = null;
      setState({ status: 'idle' });
    }, []),
  };
}
