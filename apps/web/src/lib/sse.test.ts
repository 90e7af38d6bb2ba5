import { describe, expect, it, vi } from 'vitest';
import { createSseParser, readSse, SseSilentError, type SseMessage } from './sse';

function parseAll(chunks: string[]): SseMessage[] {
  const seen: SseMessage[] = [];
  const parser = createSseParser((message) => seen.push(message));
  for (const chunk of chunks) parser.push(chunk);
  return seen;
}

describe('server-sent events parser', () => {
  it('reads named events, skipping comments and retry lines', () => {
    const text =
      'retry: 2000\n\n' +
      'event: status\ndata: {"status":30,"progress":0}\n\n' +
      ': keep-alive\n\n' +
      'event: status\ndata: {"status":60,"progress":40}\n\n';
    expect(parseAll([text])).toEqual([
      { event: 'status', data: '{"status":30,"progress":0}' },
      { event: 'status', data: '{"status":60,"progress":40}' },
    ]);
  });

  it('puts events cut anywhere back together, whatever the line endings', () => {
    const text = 'event: status\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: plain\r\rdata: x\n\n';
    const whole = parseAll([text]);
    expect(whole).toEqual([
      { event: 'status', data: '{"a":\n1}' },
      { event: 'message', data: 'plain' },
      { event: 'message', data: 'x' },
    ]);
    // Every possible split into two chunks, including between \r and \n.
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(parseAll([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual(whole);
    }
    expect(parseAll(text.split(''))).toEqual(whole);
  });

  it('does not dispatch an event before its blank line', () => {
    expect(parseAll(['event: status\ndata: {}\n'])).toEqual([]);
    expect(parseAll(['data:no-space\n\n'])).toEqual([{ event: 'message', data: 'no-space' }]);
  });

  it('reads a byte stream to its end, multi-byte characters split across chunks included', async () => {
    const bytes = new TextEncoder().encode('data: привет\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    const seen: SseMessage[] = [];
    await readSse(body, (message) => seen.push(message));
    expect(seen).toEqual([{ event: 'message', data: 'привет' }]);
  });

  it('gives up on a stream that stays open but silent (no event, no heartbeat) for the idle time', async () => {
    let cancelled = false;
    const encoder = new TextEncoder();
    let push!: (text: string) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(encoder.encode(text));
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: SseMessage[] = [];
    vi.useFakeTimers();
    try {
      const reading = readSse(body, (message) => seen.push(message), { idleMs: 60 });
      const outcome = reading.then(
        () => 'ended',
        (error: unknown) => error,
      );
      // Heartbeats keep it alive past the idle time…
      for (let beat = 0; beat < 3; beat++) {
        await vi.advanceTimersByTimeAsync(50);
        push(': keep-alive\n\n');
      }
      push('event: status\ndata: 1\n\n');
      await vi.advanceTimersByTimeAsync(59);
      expect(cancelled).toBe(false);
      // …then nothing: it rejects, and the connection is let go.
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBeInstanceOf(SseSilentError);
    } finally {
      vi.useRealTimers();
    }
    expect(seen).toEqual([{ event: 'status', data: '1' }]);
    expect(cancelled).toBe(true);
  });
});
