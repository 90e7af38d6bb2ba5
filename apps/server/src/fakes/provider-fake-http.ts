import type { IncomingMessage, ServerResponse } from 'node:http';

/** Helpers the AI providers' fakes (fal, Replicate, ComfyUI, OpenAI) share: bodies and JSON answers. */

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A JSON answer with its length, as the providers send it (another type: `application/problem+json`). */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/json',
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}
