import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-error';
import type { TModel } from '../../../lib/api-types';
import { isAcceptedPhoto, uploadErrorMessage } from '../../../lib/upload-errors';
import { modelKeys, modelsApi } from '../api/models.api';
import {
  nextBatch,
  reduceUploads,
  storedItemIds,
  type ChosenFile,
  type UploadAction,
  type UploadItem,
} from '../upload-queue';

/** Answers after which nothing else of this model should be sent now. */
const STOPPING_CODES = new Set(['models.not_found', 'models.too_many_photos', 'models.training_in_progress']);

let lastId = 0;
const newId = () => `photo-${Date.now().toString(36)}-${(lastId += 1)}`;

/**
 * Sends chosen photos to a model in small batches, each file with its own progress and verdict.
 * The work runs from the pick, not from an effect: on the kept-alive /upload/ it goes on while the
 * page is hidden. `ensureModel` gives the model's uuid, creating the model on the first pick.
 * After each batch the model is read again (verdicts of earlier photos may change with new ones),
 * and stored photos leave this list for the model's own.
 */
export function useModelPhotoUploads(options: { ensureModel(): Promise<string> }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const current = useRef<UploadItem[]>([]);
  const files = useRef(new Map<string, File>());
  const running = useRef(false);
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  const apply = useCallback((action: UploadAction) => {
    const before = current.current;
    current.current = reduceUploads(before, action);
    if (action.type === 'removed') {
      const removed = new Set(action.ids);
      for (const item of before) {
        if (!removed.has(item.id)) continue;
        files.current.delete(item.id);
        if (item.preview) URL.revokeObjectURL(item.preview);
      }
    }
    setItems(current.current);
  }, []);

  const drain = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    try {
      for (let batch = nextBatch(current.current); batch.length; batch = nextBatch(current.current)) {
        const ids = batch.map((item) => item.id);
        let uuid: string;
        try {
          uuid = await latest.current.ensureModel();
        } catch (error) {
          const waiting = current.current.filter((item) => item.status === 'queued').map((item) => item.id);
          apply({ type: 'failed', ids: waiting, error: uploadErrorMessage(t, error) });
          break;
        }
        apply({ type: 'sending', ids });
        try {
          const uploaded = await modelsApi.uploadPhotos(
            uuid,
            batch.map((item) => ({ blob: files.current.get(item.id)!, name: item.name })),
            { onProgress: (fraction) => apply({ type: 'progressed', ids, fraction }) },
          );
          apply({ type: 'judged', ids, verdicts: uploaded.photos });
          const model = await queryClient
            .fetchQuery({ queryKey: modelKeys.one(uuid), queryFn: () => modelsApi.get(uuid), staleTime: 0 })
            .catch(() => null);
          if (model) apply({ type: 'removed', ids: storedItemIds(current.current, storedUuidsOf(model)) });
          void queryClient.invalidateQueries({ queryKey: modelKeys.list() });
        } catch (error) {
          apply({ type: 'failed', ids, error: uploadErrorMessage(t, error) });
          if (error instanceof ApiError && error.code && STOPPING_CODES.has(error.code)) {
            const waiting = current.current.filter((item) => item.status === 'queued').map((item) => item.id);
            apply({ type: 'failed', ids: waiting, error: uploadErrorMessage(t, error) });
            break;
          }
        }
      }
    } finally {
      running.current = false;
    }
  }, [apply, queryClient, t]);

  const add = useCallback(
    (chosen: readonly File[]) => {
      const accepted: ChosenFile[] = [];
      const refused: ChosenFile[] = [];
      for (const file of chosen) {
        const entry = { id: newId(), name: file.name || 'photo', size: file.size, preview: null };
        if (!isAcceptedPhoto(file)) {
          refused.push(entry);
          continue;
        }
        files.current.set(entry.id, file);
        accepted.push({ ...entry, preview: URL.createObjectURL(file) });
      }
      if (refused.length) apply({ type: 'refused', files: refused });
      if (accepted.length) {
        apply({ type: 'added', files: accepted });
        void drain();
      }
    },
    [apply, drain],
  );

  return {
    items,
    add,
    retry: useCallback(
      (id: string) => {
        apply({ type: 'retried', ids: [id] });
        void drain();
      },
      [apply, drain],
    ),
    dismiss: useCallback((id: string) => apply({ type: 'removed', ids: [id] }), [apply]),
  };
}

const storedUuidsOf = (model: TModel) => new Set(model.photos.map((photo) => photo.uuid));
