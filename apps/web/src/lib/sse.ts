/** One server-sent event: its `event:` name ('message' when none) and its joined `data:` lines. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * A parser for the text/event-stream format (the WHATWG rules): feed it text as it arrives, in
 * chunks cut anywhere, and it calls `onMessage` for every complete event. Comments (`: keep-alive`)
 * and `retry:`/`id:` lines are skipped; an event with no data is not dispatched.
 */
export function createSseParser(onMessage: (message: SseMessage) => void) {
  let buffer = '';
  let event = '';
  let data: string[] = [];

  function dispatch() {
    if (data.length) onMessage({ event: event || 'message', data: data.join('\n') });
    event = '';
    data = [];
  }

  function line(text: string) {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }

  return {
    push(chunk: string) {
      buffer += chunk;
      // Lines end with \n, \r\n or \r; a trailing \r may be the first half of \r\n, so it waits.
      const pattern = /\r\n|\n|\r(?!$)/g;
      let start = 0;
      for (let match = pattern.exec(buffer); match; match = pattern.exec(buffer)) {
        line(buffer.slice(start, match.index));
        start = match.index + match[0].length;
      }
      buffer = buffer.slice(start);
    },
  };
}

/**
 * How long a stream may stay silent: the server writes a `: keep-alive` comment every 15 s, so
 * three missed ones mean the connection is dead even though it was never closed.
 */
export const SSE_IDLE_MS = 45_000;

export class SseSilentError extends Error {
  override name = 'SseSilentError';
}

/**
 * Reads a server-sent event stream to its end, calling `onMessage` per event. Resolves when the
 * server closes it; rejects when the connection breaks, the signal aborts the read, or nothing
 * (not even a heartbeat) arrives for `idleMs` — the caller then falls back to polling.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
  { idleMs = SSE_IDLE_MS }: { idleMs?: number } = {},
): Promise<void> {
  const parser = createSseParser(onMessage);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silence = () =>
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SseSilentError(`no data for ${idleMs} ms`)), idleMs);
    });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), silence()]);
      clearTimeout(timer);
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
  } catch (error) {
    // A dead connection is let go (the pending read ends) before the lock is released.
    if (error instanceof SseSilentError) await reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}
