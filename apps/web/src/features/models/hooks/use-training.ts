import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer, useState } from 'react';
import type { TModel } from '../../../lib/api-types';
import { useChargedAction } from '../../credits';
import { modelKeys, modelsApi } from '../api/models.api';
import {
  holdEarlySuccess,
  IDLE_DIALOG,
  MIN_TRAINING_PROGRESS_MS,
  reduceTrainingDialog,
} from '../model-status';

/**
 * "Start training" for a model shown on screen: the paid call (not enough credits opens the credit
 * balance dialog), then the training dialog following the model as it changes — progress (on
 * screen for a moment at least, however quick the engine), then success or the failure.
 */
export function useTraining(model: TModel | undefined, onError: (error: unknown) => void) {
  const queryClient = useQueryClient();
  const [dialog, dispatch] = useReducer(reduceTrainingDialog, IDLE_DIALOG);
  // When the training started here, and when the held success was last looked at.
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [checkedAt, setCheckedAt] = useState(0);
  const uuid = model?.uuid ?? null;
  const train = useChargedAction({
    action: async () => {
      // A read still on its way would bring back the model as it was before training.
      await queryClient.cancelQueries({ queryKey: modelKeys.one(uuid!) });
      return modelsApi.train(uuid!);
    },
    onSuccess: (started: TModel) => {
      queryClient.setQueryData(modelKeys.one(started.uuid), started);
      void queryClient.invalidateQueries({ queryKey: modelKeys.list() });
      const now = Date.now();
      setStartedAt(now);
      setCheckedAt(now);
      dispatch({ type: 'started', model: started });
    },
    onError,
  });

  // Every new reading of the model (event, poll, re-read) moves the dialog on.
  useEffect(() => {
    if (model) dispatch({ type: 'observed', model });
  }, [model]);

  // A success is held back until the progress has been on screen long enough, then let through.
  const isReady = dialog.step === 'ready';
  useEffect(() => {
    if (!isReady || startedAt === null) return;
    const timer = setTimeout(
      () => setCheckedAt(Date.now()),
      Math.max(0, startedAt + MIN_TRAINING_PROGRESS_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [isReady, startedAt]);
  const shown = holdEarlySuccess(dialog, startedAt, checkedAt);

  return {
    train,
    dialog: shown,
    closeDialog: () => {
      setStartedAt(null);
      dispatch({ type: 'closed' });
    },
  };
}
