import type { FastifyReply, FastifyRequest } from 'fastify';
import { isTerminalStatus } from '@mirra/contracts';
import { recordEventStreamClosed, recordEventStreamOpened } from '../metrics.js';

/** One `status` event of a generation's or a model's stream. */
export interface StatusEvent {
  uuid: string;
  status: number;
  progress: number;
  /** A generation waiting in a provider's queue: jobs ahead of it (0 = next); absent otherwise. */
  queue_position?: number | null;
}

/** How often a comment line keeps idle proxies from closing the stream. */
const HEARTBEAT_MS = 15_000;

/**
 * Answers with server-sent `status` events for one task (a generation, a model's training): the
 * current state at once, then each change from `watch`, until a final status or the client leaves.
 * `watch` subscribes to LISTEN/NOTIFY and calls its reset callback when events may have been missed
 * (the database connection was down); then `reread` supplies the current state again.
 */
export function streamStatusEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    current: StatusEvent;
    watch(onEvent: (event: StatusEvent) => void, onReset: () => void): () => void;
    reread(): Promise<StatusEvent>;
  },
): void {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  recordEventStreamOpened();
  const send = (event: StatusEvent) => {
    if (closed) return;
    res.write(`event: status\ndata: ${JSON.stringify(event)}\n\n`);
    if (isTerminalStatus(event.status)) close();
  };
  // The full record (a generation, a model) is read again on reset; its status fields are sent.
  const stateOf = ({ uuid, status, progress, queue_position }: StatusEvent): StatusEvent => ({
    uuid,
    status,
    progress,
    ...(queue_position === undefined ? {} : { queue_position }),
  });
  const stopWatching = options.watch(
    send,
    () =>
      void options.reread().then(
        (state) => send(stateOf(state)),
        () => {},
      ),
  );
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  function close() {
    if (closed) return;
    closed = true;
    recordEventStreamClosed();
    clearInterval(heartbeat);
    stopWatching();
    res.end();
  }
  request.raw.on('close', close);
  res.write('retry: 2000\n\n');
  send(stateOf(options.current));
}
