import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconLock } from '../../../components/ui/icons';
import type { TModel } from '../../../lib/api-types';
import { useAppStore } from '../../../lib/app-store';
import { describeError } from '../../../lib/error-messages';
import { modelKeys, modelsApi } from '../api/models.api';
import type { useModelPhotoUploads } from '../hooks/use-model-photo-uploads';
import { canAddPhotos, modelPhase } from '../model-status';
import { ModelPhotoGrid } from './model-photo-grid';
import { PhotoPicker } from './photo-picker';
import { PhotoSummary } from './photo-summary';
import '../models.css';

type Uploads = ReturnType<typeof useModelPhotoUploads>;

/**
 * A model's photos: how far the set is (then `children`, the way to training, within reach before
 * a long grid), adding more (checked the same way, before and after training), the photos with
 * their verdicts and the ones on their way, and deleting any of them.
 */
export function ModelPhotosPanel({
  model,
  uploads,
  children,
}: {
  model: TModel;
  uploads: Uploads;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(new Set());
  const phase = modelPhase(model.status);

  async function deletePhoto(photoUuid: string) {
    setDeleting((current) => new Set(current).add(photoUuid));
    try {
      const updated = await modelsApi.removePhoto(model.uuid, photoUuid);
      queryClient.setQueryData(modelKeys.one(model.uuid), updated);
      void queryClient.invalidateQueries({ queryKey: modelKeys.list() });
      useAppStore.getState().showTopinfo('success', t('model.photoDeleted'));
    } catch (error) {
      useAppStore.getState().showTopinfo('error', describeError(t, error).alert ?? t('errors.network'));
    } finally {
      setDeleting((current) => {
        const next = new Set(current);
        next.delete(photoUuid);
        return next;
      });
    }
  }

  return (
    <div className="stack model-photos-panel">
      {/* A trained model needs no count or mix: new photos only add references. */}
      {phase !== 'ready' && (
        <PhotoSummary photos={model.photos} goodCount={model.reference_count} minPhotos={model.min_photos} />
      )}
      {children}
      {canAddPhotos(model.status) && (
        <PhotoPicker
          title={model.photos.length ? t('upload.chooseMore') : t('upload.choose')}
          onChoose={uploads.add}
        />
      )}
      <ModelPhotoGrid
        photos={model.photos}
        uploads={uploads.items}
        deleting={deleting}
        canDelete={phase !== 'training'}
        onDelete={(photoUuid) => void deletePhoto(photoUuid)}
        onRetry={uploads.retry}
        onDismiss={uploads.dismiss}
      />
      <p className="muted-note private-note">
        <IconLock size={15} />
        {t('model.privateNote')}
      </p>
    </div>
  );
}
