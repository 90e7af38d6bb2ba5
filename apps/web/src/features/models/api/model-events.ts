import type { TModelEvent } from '../../../lib/api-types';
import { readSse } from '../../../lib/sse';
import { modelsApi } from './models.api';

/**
 * Follows a model's training over server-sent events (`status` events {uuid, status, progress})
 * until the server ends the stream, which it does once training has ended. Rejects when the stream
 * cannot be opened or breaks; the caller then polls instead.
 */
export async function followModelEvents(
  uuid: string,
  onEvent: (event: TModelEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const body = await modelsApi.events(uuid, signal);
  await readSse(body, (message) => {
    if (message.event !== 'status') return;
    let event: TModelEvent;
    try {
      event = JSON.parse(message.data) as TModelEvent;
    } catch {
      return;
    }
    if (event.uuid === uuid && typeof event.status === 'number') onEvent(event);
  });
}
