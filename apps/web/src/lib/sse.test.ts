import { describe, expect, it } from 'vitest';
import { createSseParser, readSse, type SseMessage } from './sse';

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
});
