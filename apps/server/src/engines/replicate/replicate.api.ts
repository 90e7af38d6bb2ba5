import { EngineError } from '../engine.types.js';
import { retryAfterSeconds } from '../provider-calls.js';
import { replicateFailure } from './replicate.models.js';

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Replicate's HTTP API as the engine and the trainer call it: `Authorization: Bearer`, JSON
 * answers, and a failed call turned into an EngineError by what Replicate answered (no answer,
 * 429 with its Retry-After, 5xx → an outage; anything else → this request fails).
 */
export function createReplicateApi(
  config: { token: string; baseUrl: string },
  options: { warn?: (message: string) => void } = {},
) {
  const base = config.baseUrl.replace(/\/+$/, '');
  const warn = options.warn ?? ((message: string) => console.warn(message));

  async function send(
    path: string,
    init: RequestInit & { signal?: AbortSignal },
  ): Promise<{ response: Response; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${config.token}`, ...(init.headers ?? {}) },
        signal: init.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      if ((error as Error)?.name === 'TimeoutError') {
        throw new EngineError('engine.timeout', 'Replicate took too long to answer.', true);
      }
      throw replicateFailure({ status: null });
    }
    const body: unknown = await response.json().catch(() => null);
    return { response, body };
  }

  const failureOf = (response: Response, body: unknown) =>
    replicateFailure({
      status: response.status,
      body,
      retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after'), new Date()),
    });

  async function api<T>(path: string, init: RequestInit & { signal?: AbortSignal }): Promise<T> {
    const { response, body } = await send(path, init);
    if (!response.ok) throw failureOf(response, body);
    return body as T;
  }

  /** A resource that may not exist: null on a 404, the answer otherwise. */
  async function find<T>(path: string, signal: AbortSignal): Promise<T | null> {
    const { response, body } = await send(path, { method: 'GET', signal });
    if (response.status === 404) return null;
    if (!response.ok) throw failureOf(response, body);
    return body as T;
  }

  /** Uploads a file to Replicate's files API (it expires there); its URL is what a model reads. */
  async function upload(
    file: { data: Buffer; contentType: string; name?: string },
    signal: AbortSignal,
  ): Promise<string> {
    const form = new FormData();
    const extension = file.contentType.split('/')[1] ?? 'bin';
    form.append(
      'content',
      new Blob([new Uint8Array(file.data)], { type: file.contentType }),
      file.name ?? `input.${extension}`,
    );
    form.append('metadata', JSON.stringify({ purpose: 'mirra-input' }));
    const stored = await api<{ urls?: { get?: string } }>('/files', { method: 'POST', body: form, signal });
    if (!stored.urls?.get) throw new EngineError('engine.failed', 'Replicate stored no file.', true);
    return stored.urls.get;
  }

  /**
   * Deletes a file this account uploaded (`DELETE /v1/files/{id}`), given its URL; a URL that is
   * not one of Replicate's files is left alone. Never fails the caller: the file expires there
   * anyway, so a refusal or no answer is logged, and a file already gone (404) is what was wanted.
   */
  async function deleteFile(url: string): Promise<void> {
    const id = /\/files\/([^/?#]+)$/.exec(url)?.[1];
    if (!id || !url.startsWith(`${base}/files/`)) return;
    const answer = await send(`/files/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(
      (error: unknown) => error as Error,
    );
    if (answer instanceof Error) {
      warn(`Replicate's file ${id} could not be deleted (${answer.message}); it expires there anyway.`);
    } else if (!answer.response.ok && answer.response.status !== 404) {
      warn(
        `Replicate's file ${id} could not be deleted (${answer.response.status}); it expires there anyway.`,
      );
    }
  }

  /** The files of ours a prediction's (or training's) input names: what is deleted once it has ended. */
  function uploadedFilesOf(input: unknown): string[] {
    if (!input || typeof input !== 'object') return [];
    return Object.values(input as Record<string, unknown>).filter(
      (value): value is string => typeof value === 'string' && value.startsWith(`${base}/files/`),
    );
  }

  return { api, find, upload, deleteFile, uploadedFilesOf };
}
