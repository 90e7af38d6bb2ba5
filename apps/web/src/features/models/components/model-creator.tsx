import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  GenerationStatus,
  MODEL_MIN_PHOTOS,
  MODEL_NAME_MAX_LENGTH,
  type TModelSubject,
} from '@mirra/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { IconCheck, IconChevron } from '../../../components/ui/icons';
import { PageHeading } from '../../../components/ui/page';
import { TextInput } from '../../../components/ui/text-input';
import { useFormErrors } from '../../../components/ui/use-form-errors';
import { ApiError } from '../../../lib/api-error';
import type { TModelCategory } from '../../../lib/api-types';
import { ChargeDialogs } from '../../credits';
import { modelKeys, modelsApi } from '../api/models.api';
import { useLiveModel } from '../hooks/use-live-model';
import { useModelPhotoUploads } from '../hooks/use-model-photo-uploads';
import { useTraining } from '../hooks/use-training';
import { modelPhase, trainingPercent } from '../model-status';
import { trainReturnPath } from '../train-return';
import { isUploading } from '../upload-queue';
import { CategoryPicker } from './category-picker';
import { SubjectPicker } from './subject-picker';
import { CreatePhotoButton } from './create-photo-button';
import { ModelFailure } from './model-failure';
import { ModelList } from './model-list';
import { ModelPhotoGrid } from './model-photo-grid';
import { ModelPhotosPanel } from './model-photos-panel';
import { ModelStatusChip } from './model-status-chip';
import { PhotoPicker } from './photo-picker';
import { TrainPanel } from './train-panel';
import { TrainingDialog, TrainingProgress } from './training-dialog';
import '../models.css';

const TIPS = ['tips.count', 'tips.light', 'tips.glasses', 'tips.angles', 'tips.alone'] as const;
const FORM_FIELDS = ['name', 'category'] as const;

/**
 * Model creation (/upload/): the intro with the tips, name and category; the first pick
 * of photos creates the model, then the photos are checked one by one as they arrive, and
 * training starts once enough are good. "Start a new model" begins again from the intro.
 */
export function ModelCreator() {
  const [round, setRound] = useState(0);
  const startOver = useCallback(() => setRound((n) => n + 1), []);
  return <ModelDraft key={round} onStartOver={startOver} />;
}

function ModelDraft({ onStartOver }: { onStartOver(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [category, setCategory] = useState<TModelCategory>('female');
  const [subject, setSubject] = useState<TModelSubject>('self');
  const [modelUuid, setModelUuid] = useState<string | null>(null);
  const errors = useFormErrors(FORM_FIELDS);
  // One creation however many batches ask for it at once.
  const creation = useRef<Promise<string> | null>(null);

  const ensureModel = useCallback(() => {
    creation.current ??= modelsApi
      .create({ name: name.trim() || t('upload.defaultName'), category, subject })
      .then((model) => {
        queryClient.setQueryData(modelKeys.one(model.uuid), model);
        void queryClient.invalidateQueries({ queryKey: modelKeys.list() });
        setModelUuid(model.uuid);
        return model.uuid;
      })
      .catch((error: unknown) => {
        creation.current = null;
        errors.showError(error);
        throw error;
      });
    return creation.current;
  }, [name, category, subject, t, queryClient, errors]);

  const uploads = useModelPhotoUploads({ ensureModel });
  const live = useLiveModel(modelUuid);
  const model = live.data;
  const { train, dialog, closeDialog } = useTraining(model, errors.showError);
  const phase = model ? modelPhase(model.status) : null;
  // The model was deleted (on its own page): this draft is over.
  const isGone = modelUuid !== null && live.error instanceof ApiError && live.error.status === 404;
  useEffect(() => {
    if (isGone) onStartOver();
  }, [isGone, onStartOver]);

  return (
    <>
      <PageHeading title={t('upload.title')} subtitle={t('upload.subtitle', { count: MODEL_MIN_PHOTOS })} />
      <ul className="tips" data-testid="upload-tips">
        {TIPS.map((tip) => (
          <li key={tip} className="tips__item">
            <IconCheck size={16} />
            {t(`upload.${tip}`, { count: MODEL_MIN_PHOTOS })}
          </li>
        ))}
      </ul>

      {!model ? (
        <div className="stack" data-testid="model-intro">
          <TextInput
            title={t('upload.name')}
            placeholder={t('upload.namePlaceholder')}
            value={name}
            onValueChange={(value) => {
              setName(value);
              errors.clearField('name');
            }}
            maxLength={MODEL_NAME_MAX_LENGTH}
            error={errors.fieldErrors.name}
            disabled={modelUuid !== null}
            data-testid="model-name"
          />
          <SubjectPicker value={subject} onChange={setSubject} />
          <CategoryPicker value={category} onChange={setCategory} />
          <PhotoPicker title={t('upload.choose')} onChoose={uploads.add} />
          <ModelPhotoGrid
            photos={[]}
            uploads={uploads.items}
            deleting={new Set()}
            canDelete={false}
            onDelete={() => undefined}
            onRetry={uploads.retry}
            onDismiss={uploads.dismiss}
          />
        </div>
      ) : (
        <div className="stack" data-testid="model-draft">
          <div className="model-head model-head--compact">
            <div className="model-head__text">
              <span className="model-head__name" data-testid="model-name-shown">
                {model.name}
              </span>
              <span className="model-head__meta">{t(`upload.categories.${model.category}`)}</span>
            </div>
            <ModelStatusChip model={model} />
            <Link to={`/model/${model.uuid}/`} className="icon-btn" aria-label={t('training.openModel')}>
              <IconChevron size={20} />
            </Link>
          </div>
          {phase === 'training' && (
            <TrainingProgress
              percent={trainingPercent(model.status, model.progress)}
              isQueued={model.status !== GenerationStatus.IN_PROGRESS}
              trainingSeconds={model.training_seconds}
            />
          )}
          {phase === 'ready' && (
            <div className="stack">
              <CreatePhotoButton modelUuid={model.uuid} />
              <Button theme="light" size="lg" block onClick={onStartOver} data-testid="model-start-over">
                {t('upload.newModel')}
              </Button>
            </div>
          )}
          {phase === 'failed' && (
            <ModelFailure errorCode={model.error_code} errorDetail={model.error_detail} />
          )}
          {phase !== 'ready' && (
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
          )}
        </div>
      )}
      {errors.alert && <Alert>{errors.alert}</Alert>}

      <ModelList exclude={modelUuid} />
      <TrainingDialog state={dialog} trainingSeconds={model?.training_seconds} onClose={closeDialog} />
      {/* A purchase to afford the training comes back to this model's page, not a blank form. */}
      <ChargeDialogs
        refusal={train.refusal}
        onClose={train.closeRefusal}
        onSkip={train.skipWait}
        returnPath={modelUuid ? trainReturnPath(modelUuid) : undefined}
      />
    </>
  );
}
