import type { NotificationHub } from '../../shared/db/notifications.js';

export const GENERATION_EVENTS_CHANNEL = 'mirra_generation_events';

export interface GenerationEvent {
  uuid: string;
  status: number;
  progress: number;
  /** Jobs ahead of it in a provider's queue (0 = next); null when no provider holds it waiting. */
  queue_position?: number | null;
}

/**
 * Fans generation changes out to the browsers watching them. A database trigger NOTIFYs every
 * status or progress change (from any worker), this process LISTENs once and dispatches by uuid.
 * `onReset` tells watchers they may have missed events (they re-read the row). Models' training
 * uses the same shape of event on its own channel.
 */
export function createGenerationEvents(hub: NotificationHub | null, channel = GENERATION_EVENTS_CHANNEL) {
  const watchers = new Map<string, Set<{ onEvent: (e: GenerationEvent) => void; onReset: () => void }>>();
  hub?.subscribe(
    channel,
    (payload) => {
      let event: GenerationEvent & { user_id?: number };
      try {
        event = JSON.parse(payload) as GenerationEvent;
      } catch {
        return;
      }
      for (const watcher of watchers.get(event.uuid) ?? []) {
        watcher.onEvent({
          uuid: event.uuid,
          status: event.status,
          progress: event.progress,
          ...(event.queue_position === undefined ? {} : { queue_position: event.queue_position }),
        });
      }
    },
    () => {
      for (const set of watchers.values()) for (const watcher of set) watcher.onReset();
    },
  );
  return {
    isAvailable: () => Boolean(hub),
    watch(uuid: string, onEvent: (e: GenerationEvent) => void, onReset: () => void): () => void {
      const watcher = { onEvent, onReset };
      const set = watchers.get(uuid) ?? new Set();
      set.add(watcher);
      watchers.set(uuid, set);
      return () => {
        set.delete(watcher);
        if (!set.size) watchers.delete(uuid);
      };
    },
  };
}

export type GenerationEvents = ReturnType<typeof createGenerationEvents>;
