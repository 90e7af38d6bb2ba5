import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GenerationStatus } from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconFace, IconTrash } from '../../../components/ui/icons';
import { Section } from '../../../components/ui/page';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import type { TModel } from '../../../lib/api-types';
import { ChargeDialogs } from '../../credits';
import { useModelPhotoUploads } from '../hooks/use-model-photo-uploads';
import { useTraining } from '../hooks/use-training';
import { modelPhase, trainingPercent } from '../model-status';
import { trainReturnPath } from '../train-return';
import { isUploading } from '../upload-queue';
import { CreatePhotoButton } from './create-photo-button';
import { DeleteModelSheet } from './delete-model-sheet';
import { ModelFailure } from './model-failure';
import { ModelPhotosPanel } from './model-photos-panel';
import { ModelStatusChip } from './model-status-chip';
import { TrainPanel } from './train-panel';
import { TrainingDialog, TrainingProgress } from './training-dialog';
import '../models.css';
import { formatDay } from '../../../lib/dates';

/**
 * One of my models (/model/<uuid>/): name, category, state (live while it trains), reference
 * count, its private photos, adding photos (checked the same way; a trained model's references
 * grow), deleting a photo or the model, and creating a photo with it. A failed training says why,
 * that the credits came back, and offers to train again.
 */
export function ModelDetails({ model, isPolling }: { model: TModel; isPolling: boolean }) {
  const { t, i18n } = useTranslation();
  const errors = useFormErrors([]);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const uploads = useModelPhotoUploads({ ensureModel: () => Promise.resolve(model.uuid) });
  const { train, dialog, closeDialog } = useTraining(model, errors.showError);
  const phase = modelPhase(model.status);
  const trainedOn = model.trained_at ? formatDay(model.trained_at, i18n.language) : null;

  return (
    <div className="stack model-details" data-testid="model-details">
      <div className="model-head">
        {model.cover_url ? (
          <img src={model.cover_url} alt="" className="model-head__cover" width={72} height={72} />
        ) : (
          <span className="model-head__cover model-head__cover--empty">
            <IconFace size={30} />
          </span>
        )}
        <div className="model-head__text">
          <h1 className="model-head__name" data-testid="model-title">
            {model.name}
          </h1>
          <span className="model-head__meta">
            {t(`upload.categories.${model.category}`)} ·{' '}
            {phase === 'ready'
              ? t('model.references', { count: model.reference_count })
              : t('model.photoCount', { count: model.photo_count })}
          </span>
          {trainedOn && <span className="model-head__meta">{t('model.trainedOn', { date: trainedOn })}</span>}
          <ModelStatusChip model={model} />
        </div>
      </div>

      {phase === 'training' && (
        <>
          <TrainingProgress
            percent={trainingPercent(model.status, model.progress)}
            isQueued={model.status !== GenerationStatus.IN_PROGRESS}
            trainingSeconds={model.training_seconds}
          />
          {isPolling && <p className="muted-note">{t('model.polling')}</p>}
        </>
      )}
      {phase === 'ready' && (
        <div className="stack">
          <CreatePhotoButton modelUuid={model.uuid} />
          <p className="muted-note">{t('model.immutable')}</p>
        </div>
      )}
      {phase === 'failed' && <ModelFailure errorCode={model.error_code} errorDetail={model.error_detail} />}
      {errors.alert && <Alert>{errors.alert}</Alert>}

      <Section title={t('model.photos')}>
        <ModelPhotosPanel model={model} uploads={uploads}>
          {(phase === 'collecting' || phase === 'failed') && (
            <TrainPanel
              model={model}
              isUploading={isUploading(uploads.items)}
              pending={train.pending}
              label={phase === 'failed' ? t('model.trainAgain') : t('upload.start')}
              onTrain={() => void train.run()}
            />
          )}
        </ModelPhotosPanel>
      </Section>

      <Button
        theme="light"
        block
        icon={<IconTrash size={18} />}
        onClick={() => setDeleteOpen(true)}
        className="model-details__delete"
        data-testid="delete-model"
      >
        {t('model.delete')}
      </Button>

      <DeleteModelSheet uuid={model.uuid} open={deleteOpen} onClose={() => setDeleteOpen(false)} />
      <TrainingDialog state={dialog} trainingSeconds={model.training_seconds} onClose={closeDialog} />
      <ChargeDialogs
        refusal={train.refusal}
        onClose={train.closeRefusal}
        onSkip={train.skipWait}
        returnPath={trainReturnPath(model.uuid)}
      />
    </div>
  );
}
