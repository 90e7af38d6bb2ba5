import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TGeneration } from '../../../lib/api-types';
import { followGenerationEvents } from '../api/generation-events';
import { refreshBalance } from '../../credits';
import { generationKeys, generationsApi } from '../api/generations.api';
import { applyEvent, isFinished } from '../generation-status';

/** How often the result screen asks when the event stream is not available (spec: polling fallback). */
export const POLL_INTERVAL_MS = 2000;

/**
 * One generation, kept live: the server's event stream moves its status and progress, a final
 * status reads it again (with its result), and when the stream cannot be opened or breaks the
 * screen polls `GET /api/generations/<uuid>/` every 2 s instead.
 */
export function useLiveGeneration(uuid: string) {
  const queryClient = useQueryClient();
  const [isPolling, setPolling] = useState(false);
  const query = useQuery({
    queryKey: generationKeys.one(uuid),
    queryFn: () => generationsApi.get(uuid),
    refetchInterval: (q) =>
      isPolling && q.state.data && !isFinished(q.state.data.status) ? POLL_INTERVAL_MS : false,
  });
  const loaded = query.data !== undefined;
  const finished = query.data ? isFinished(query.data.status) : false;

  useEffect(() => {
    if (!loaded || finished || isPolling) return;
    const controller = new AbortController();
    const key = generationKeys.one(uuid);
    let sawFinal = false;
    followGenerationEvents(
      uuid,
      (event) => {
        queryClient.setQueryData<TGeneration>(key, (current) =>
          current ? applyEvent(current, event) : current,
        );
        if (isFinished(event.status)) {
          sawFinal = true;
          // The result (or the failure's reason) comes with the full record; if it cannot be
          // read now, polling keeps trying.
          void queryClient.refetchQueries({ queryKey: key }).then(() => {
            const record = queryClient.getQueryData<TGeneration>(key);
            if (!record || !isFinished(record.status)) setPolling(true);
          });
        }
      },
      controller.signal,
    )
      .then(() => {
        if (!sawFinal && !controller.signal.aborted) setPolling(true);
      })
      .catch(() => {
        if (!controller.signal.aborted) setPolling(true);
      });
    return () => controller.abort();
  }, [uuid, loaded, finished, isPolling, queryClient]);

  // A finished generation changes the list's badge and, when it failed, the balance (refund).
  useEffect(() => {
    if (!finished) return;
    refreshBalance(queryClient);
  }, [finished, queryClient]);

  return { ...query, isPolling };
}
