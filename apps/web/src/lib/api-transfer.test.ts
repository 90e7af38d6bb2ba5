import { routes } from '@mirra/contracts';
import { describe, expect, it, vi } from 'vitest';
import { accessExpiringIn } from '../test/jwt';
import { createApiClient, type KeyValueStore } from './api-client';
import { ApiError } from './api-error';
import { openEventStream, uploadForm } from './api-transfer';
import type { StorageKey } from './storage';

const NOW = 1_700_000_000_000;

function memoryStore(initial: Partial<Record<StorageKey, string>> = {}): KeyValueStore {
  const data = new Map<string, string>(Object.entries(initial));
  return {
    get: (key) => data.get(key) ?? null,
    set: (key, value) => (value === null ? data.delete(key) : data.set(key, value)),
  };
}

function fakeFetch(response: () => Response) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return response();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const sentHeader = (init: RequestInit, name: string) => (init.headers as Record<string, string>)[name];

/** Plays XMLHttpRequest: records what was sent, then reports progress and an answer on cue. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  body: unknown = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } =
    { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe('uploads with progress', () => {
  const xhr = () => new FakeXhr() as unknown as XMLHttpRequest;
  const client = (store: KeyValueStore = memoryStore()) => createApiClient({ store, now: () => NOW });
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('sends the form with the auth header (no JSON content type) and reports progress', async () => {
    const store = memoryStore({ access: accessExpiringIn(300, NOW), refresh: 'r1', django_language: 'de' });
    const progress: number[] = [];
    const form = new FormData();
    const done = uploadForm(
      routes.uploads.create,
      { body: form },
      { onProgress: (f) => progress.push(f) },
      client(store),
      xhr,
    );
    await flush();
    const sent = FakeXhr.last!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/api/uploads/');
    expect(sent.body).toBe(form);
    expect(sent.withCredentials).toBe(true);
    expect(sent.headers.Authorization).toBe(`Bearer ${store.get('access')}`);
    expect(sent.headers['Accept-Language']).toBe('de');
    expect(sent.headers['Content-Type']).toBeUndefined();
    sent.progress(25, 100);
    sent.progress(100, 100);
    sent.answer(201, { uuid: 'u1' });
    await expect(done).resolves.toEqual({ uuid: 'u1' });
    expect(progress).toEqual([0.25, 1, 1]);
  });

  it('turns an error answer into ApiError with its field messages', async () => {
    const done = uploadForm(routes.uploads.create, { body: new FormData() }, {}, client(), xhr);
    await flush();
    FakeXhr.last!.answer(413, {
      detail: 'File too big',
      file: ['The file size must not exceed 15 MB'],
      code: 'uploads.too_big',
    });
    const error = (await done.catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(413);
    expect(error.code).toBe('uploads.too_big');
  });

  it('fails like fetch when there is no answer, and can be cancelled', async () => {
    const offline = uploadForm(routes.uploads.create, { body: new FormData() }, {}, client(), xhr);
    await flush();
    FakeXhr.last!.onerror?.();
    await expect(offline).rejects.toBeInstanceOf(TypeError);

    const controller = new AbortController();
    const cancelled = uploadForm(
      routes.uploads.create,
      { body: new FormData() },
      { signal: controller.signal },
      client(),
      xhr,
    );
    await flush();
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('event streams', () => {
  it('opens the stream with the auth header and hands back the body', async () => {
    const store = memoryStore({ tgData: 'user=%7B%7D&hash=h' });
    const server = fakeFetch(
      () => new Response('event: status\ndata: {}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
    );
    const api = createApiClient({ fetch: server.fetch, store, now: () => NOW });
    const body = await openEventStream(routes.generations.events, { params: { uuid: 'x' } }, api);
    expect(await new Response(body).text()).toBe('event: status\ndata: {}\n\n');
    expect(sentHeader(server.calls[0]!.init, 'Authorization')).toBe('TG user=%7B%7D&hash=h');
    expect(sentHeader(server.calls[0]!.init, 'Accept')).toBe('text/event-stream');
  });

  it('throws ApiError for an error status', async () => {
    const server = fakeFetch(
      () =>
        new Response(JSON.stringify({ detail: 'Not found.', code: 'generations.not_found' }), {
          status: 404,
        }),
    );
    const api = createApiClient({ fetch: server.fetch, store: memoryStore(), now: () => NOW });
    await expect(
      openEventStream(routes.generations.events, { params: { uuid: 'x' } }, api),
    ).rejects.toMatchObject({
      status: 404,
      code: 'generations.not_found',
    });
  });
});
