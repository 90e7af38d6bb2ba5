import WebSocket from 'ws';
import { applySocketMessage, initialSocketState, type ComfySocketState } from './comfyui.models.js';

/** How long opening the socket may take before the prompt is queued without it (then polled). */
const CONNECT_TIMEOUT_MS = 5000;
/** A socket no poll asked about for this long is closed (its worker is gone). */
const IDLE_CLOSE_MS = 10 * 60_000;

/**
 * One prompt's live view over ComfyUI's WebSocket (`/ws?clientId=<id>`): the server sends the
 * execution messages of a prompt only to the socket of the client id it was queued with, so each
 * prompt gets its own client id and socket. `state` follows the messages; `onChange` hears each
 * change (the live progress); `isOpen` false once the socket dropped (the engine then polls).
 */
export interface ComfyPromptSocket {
  readonly clientId: string;
  readonly state: ComfySocketState;
  readonly isOpen: boolean;
  /** The prompt it follows (known after `POST /prompt`; messages before that are kept and replayed). */
  follow(promptId: string): void;
  onChange(listener: ((state: ComfySocketState) => void) | null): void;
  /** Resolves when the prompt ended, the socket dropped, or after `ms`. */
  settled(ms: number): Promise<void>;
  close(): void;
}

/** Opens the socket and waits for it (null: ComfyUI's socket could not be opened in time). */
export async function openPromptSocket(server: string, clientId: string): Promise<ComfyPromptSocket | null> {
  const url = `${server.replace(/^http/, 'ws')}/ws?clientId=${encodeURIComponent(clientId)}`;
  const socket = new WebSocket(url, { handshakeTimeout: CONNECT_TIMEOUT_MS });
  const opened = await new Promise<boolean>((resolve) => {
    socket.once('open', () => resolve(true));
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
  if (!opened) {
    socket.terminate();
    return null;
  }

  let promptId: string | null = null;
  let state = initialSocketState;
  let open = true;
  let listener: ((state: ComfySocketState) => void) | null = null;
  const early: Array<{ type?: unknown; data?: unknown }> = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    const woken = [...waiters];
    waiters.clear();
    for (const waiter of woken) waiter();
  };
  let idle = setTimeout(() => close(), IDLE_CLOSE_MS);

  const apply = (message: { type?: unknown; data?: unknown }) => {
    if (!promptId) {
      early.push(message);
      return;
    }
    const next = applySocketMessage(state, promptId, message);
    if (next === state) return;
    state = next;
    listener?.(state);
    wake();
  };
  socket.on('message', (data, isBinary) => {
    // Binary frames are previews and progress text: not used.
    if (isBinary) return;
    try {
      apply(JSON.parse(data.toString()) as { type?: unknown; data?: unknown });
    } catch {
      // Not JSON: ignored.
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    open = false;
    clearTimeout(idle);
    wake();
  });

  function close() {
    open = false;
    listener = null;
    clearTimeout(idle);
    socket.terminate();
    wake();
  }

  return {
    clientId,
    get state() {
      return state;
    },
    get isOpen() {
      return open;
    },
    follow(id) {
      promptId = id;
      for (const message of early.splice(0)) apply(message);
    },
    onChange(next) {
      listener = next;
    },
    settled(ms) {
      clearTimeout(idle);
      idle = setTimeout(() => close(), IDLE_CLOSE_MS);
      if (!open || state.ended) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const check = () => {
          if (!open || state.ended) done();
          else waiters.add(check);
        };
        const timer = setTimeout(done, ms);
        waiters.add(check);
      });
    },
    close,
  };
}
