import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { TModel } from '../../../lib/api-types';
import { loadUser } from '../../../lib/session';
import { refreshBalance } from '../../credits';
import { followModelEvents } from '../api/model-events';
import { modelKeys, modelsApi } from '../api/models.api';
import { applyModelEvent, modelPhase } from '../model-status';

/** How often a training model is read again when its event stream is not available. */
export const MODEL_POLL_INTERVAL_MS = 3000;

/**
 * One of my models, kept live while it trains: the event stream moves its progress, the end of
 * training reads it again (status, reason, photos), and a stream that cannot open or breaks turns
 * into polling. When training ends the user is read again (`lora`, face swap's gate) and the
 * balance too (a failed training is refunded).
 */
export function useLiveModel(uuid: string | null) {
  const queryClient = useQueryClient();
  const [isPolling, setPolling] = useState(false);
  const query = useQuery({
    queryKey: modelKeys.one(uuid ?? ''),
    queryFn: () => modelsApi.get(uuid!),
    enabled: uuid !== null,
    refetchInterval: (q) =>
      isPolling && q.state.data && modelPhase(q.state.data.status) === 'training'
        ? MODEL_POLL_INTERVAL_MS
        : false,
  });
  const isTraining = query.data ? modelPhase(query.data.status) === 'training' : false;

  useEffect(() => {
    if (!uuid || !isTraining || isPolling) return;
    const controller = new AbortController();
    const key = modelKeys.one(uuid);
    let sawEnd = false;
    followModelEvents(
      uuid,
      (event) => {
        queryClient.setQueryData<TModel>(key, (current) =>
          current ? applyModelEvent(current, event) : current,
        );
        if (modelPhase(event.status) !== 'training' && modelPhase(event.status) !== 'collecting') {
          sawEnd = true;
          void queryClient.refetchQueries({ queryKey: key }).then(() => {
            const model = queryClient.getQueryData<TModel>(key);
            if (!model || modelPhase(model.status) === 'training') setPolling(true);
          });
        }
      },
      controller.signal,
    )
      .then(() => {
        if (!sawEnd && !controller.signal.aborted) setPolling(true);
      })
      .catch(() => {
        if (!controller.signal.aborted) setPolling(true);
      });
    return () => controller.abort();
  }, [uuid, isTraining, isPolling, queryClient]);

  // Training just ended on screen: the list, the balance and the user (`lora`) change with it.
  const phase = query.data ? modelPhase(query.data.status) : null;
  const previousPhase = useRef(phase);
  useEffect(() => {
    const before = previousPhase.current;
    previousPhase.current = phase;
    if (before !== 'training' || phase === null || phase === 'training') return;
    void queryClient.invalidateQueries({ queryKey: modelKeys.list() });
    refreshBalance(queryClient);
    void loadUser();
  }, [phase, queryClient]);

  return { ...query, isPolling };
}
