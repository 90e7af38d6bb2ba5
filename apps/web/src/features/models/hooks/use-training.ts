import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer } from 'react';
import type { TModel } from '../../../lib/api-types';
import { useChargedAction } from '../../credits';
import { modelKeys, modelsApi } from '../api/models.api';
import { IDLE_DIALOG, reduceTrainingDialog } from '../model-status';

/**
 * "Start training" for a model shown on screen: the paid call (not enough credits opens the credit
 * balance dialog), then the training dialog following the model as it changes — progress, then
 * success or the failure.
 */
export function useTraining(model: TModel | undefined, onError: (error: unknown) => void) {
  const queryClient = useQueryClient();
  const [dialog, dispatch] = useReducer(reduceTrainingDialog, IDLE_DIALOG);
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
      dispatch({ type: 'started', model: started });
    },
    onError,
  });

  // Every new reading of the model (event, poll, re-read) moves the dialog on.
  useEffect(() => {
    if (model) dispatch({ type: 'observed', model });
  }, [model]);

  return { train, dialog, closeDialog: () => dispatch({ type: 'closed' }) };
}
