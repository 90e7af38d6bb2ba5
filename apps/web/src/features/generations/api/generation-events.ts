import type { TGenerationEvent } from '../../../lib/api-types';
import { readSse } from '../../../lib/sse';
import { generationsApi } from './generations.api';

/**
 * Follows a generation's server-sent events (`status` events {uuid, status, progress}) until the
 * server ends the stream, which it does after a final status. Rejects when the stream cannot be
 * opened or breaks; the caller then falls back to polling.
 */
export async function followGenerationEvents(
  uuid: string,
  onEvent: (event: TGenerationEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const body = await generationsApi.events(uuid, signal);
  await readSse(body, (message) => {
    if (message.event !== 'status') return;
    let event: TGenerationEvent;
    try {
      event = JSON.parse(message.data) as TGenerationEvent;
    } catch {
      return;
    }
    if (event.uuid === uuid && typeof event.status === 'number') onEvent(event);
  });
}
