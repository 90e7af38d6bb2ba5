/**
 * The two calls that do not fit `api.request`: uploads with progress (XMLHttpRequest — fetch cannot
 * report upload progress) and server-sent event streams (fetch with the body read as it arrives —
 * EventSource cannot send the Authorization header). Both use the client's auth and error rules.
 * Kept apart from the client so the first page does not carry them.
 */
import { routePath, type RouteReply, type RouteSpec } from '@mirra/contracts';
import {
  api,
  readResponseBody,
  type ApiCallOptions,
  type ApiClient,
  type PlainCallOptions,
} from './api-client';
import { ApiError } from './api-error';

export interface UploadOptions {
  /** Called with 0–1 as the body is sent. */
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
}

const cancelled = () => new DOMException('The upload was cancelled.', 'AbortError');

/**
 * Posts a multipart form, reporting progress. Answers and errors are read like `api.request`'s;
 * no answer at all is a TypeError, as fetch's would be.
 */
export async function uploadForm<const R extends RouteSpec & { readonly requestKind: 'multipart' }>(
  route: R,
  call: ApiCallOptions<R>,
  options: UploadOptions = {},
  client: Pick<ApiClient, 'authorizedHeaders'> = api,
  newXhr: () => XMLHttpRequest = () => new XMLHttpRequest(),
): Promise<RouteReply<R>> {
  type T = RouteReply<R>;
  const { params, body } = call as PlainCallOptions;
  const form = body as FormData;
  const path = routePath(route, params);
  const headers = await client.authorizedHeaders(path);
  // The browser writes the multipart Content-Type with its boundary.
  delete headers['Content-Type'];
  return new Promise<T>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(cancelled());
      return;
    }
    const xhr = newXhr();
    xhr.open(route.method, path);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
      let json: unknown = null;
      try {
        json = text ? (JSON.parse(text) as unknown) : null;
      } catch {
        json = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(json as T);
      } else reject(new ApiError(xhr.status, json, text));
    };
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(cancelled());
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/**
 * Opens a server-sent event stream: resolves with the body once the status is OK (read it with
 * `readSse`); an error status throws ApiError.
 */
export async function openEventStream<const R extends RouteSpec & { readonly replyKind: 'event-stream' }>(
  route: R,
  options: ApiCallOptions<R>,
  client: Pick<ApiClient, 'authorizedHeaders' | 'fetch'> = api,
): Promise<ReadableStream<Uint8Array>> {
  const path = routePath(route, (options as PlainCallOptions).params);
  const headers = await client.authorizedHeaders(path);
  headers.Accept = 'text/event-stream';
  delete headers['Content-Type'];
  const response = await client.fetch(path, {
    method: 'GET',
    credentials: 'include',
    headers,
    cache: 'no-store',
    signal: options.signal,
  });
  if (!response.ok || !response.body) {
    const { json, text } = await readResponseBody(response);
    throw new ApiError(response.status, json, text);
  }
  return response.body;
}
