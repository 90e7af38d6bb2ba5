import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drawScene, recolour } from './fake-media.js';
import { readBody } from './provider-fake-http.js';

/**
 * A local stand-in for the two OpenAI endpoints Mirra calls, following their contracts:
 * - `POST /v1/moderations` (`omni-moderation-latest`): deterministic keyword scores over all 13
 *   categories (see MODERATION_KEYWORDS), `flagged` when any score reaches 0.5;
 * - `POST /v1/chat/completions`: the OpenAI-compatible chat API that OpenRouter, Ollama and
 *   llama.cpp servers also speak; answers a scripted or default English prompt.
 * - `POST /v1/images/generations` (JSON) and `POST /v1/images/edits` (multipart, `image` file(s)):
 *   `data[0].b64_json` of a real PNG (the local engine's scene, or the sent photo recoloured) with
 *   `usage`; a prompt with OPENAI_REFUSED_WORD is refused by the "safety system" (400
 *   `image_generation_user_error`, code `moderation_blocked`); a 429 carries `retry-after` and
 *   `x-ratelimit-*` headers.
 * Errors come in OpenAI's shape `{error: {message, type, param, code}}`: 401 for a wrong key,
 * and whatever a test scripts (429 with Retry-After, 500, slow answers for timeouts).
 */

export const MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;
type Category = (typeof MODERATION_CATEGORIES)[number];

/**
 * Words that raise a category's score to 0.9 (English only, like a lazy classifier). Chosen so
 * tests can reach the online moderator with prompts the project's word list lets through.
 */
export const MODERATION_KEYWORDS: Record<string, Category[]> = {
  kill: ['violence'],
  murder: ['violence'],
  stab: ['violence'],
  shoot: ['violence', 'illicit/violent'],
  bomb: ['illicit/violent', 'violence'],
  hate: ['hate'],
  suicide: ['self-harm', 'self-harm/intent'],
  explicit: ['sexual'],
  provocative: ['sexual'],
};

export type FakeEndpoint = 'moderations' | 'chat' | 'images';

export const OPENAI_REFUSED_WORD = 'forbidden-by-openai';

export interface FakeRequest {
  endpoint: FakeEndpoint;
  /** The path asked for, e.g. `/v1/images/edits`. */
  path: string;
  /** The request's content type without its parameters (`multipart/form-data` for edits). */
  contentType: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** One scripted answer: wait first, then fail with `status` or answer (with `content` for chat). */
export interface FakeStep {
  delayMs?: number;
  status?: number;
  /** A 429's `retry-after` header (seconds or an HTTP date); `1` when not given. */
  retryAfter?: string;
  content?: string;
}

export interface OpenAiFake {
  /** Use as OPENAI_BASE_URL (the API lives under /v1 of it). */
  url: string;
  /** Use as PROMPT_HELPER_BASE_URL: an OpenAI-compatible base ending in /v1. */
  chatBaseUrl: string;
  /** The key the fake accepts (`Bearer <key>`); null accepts any or none, like Ollama. */
  apiKey: string | null;
  /** Every request received, oldest first. */
  requests: FakeRequest[];
  /** Queues answers for the next requests to one endpoint; default answers resume after them. */
  script(endpoint: FakeEndpoint, steps: FakeStep[]): void;
  /** What chat answers by default (a function sees the request body). */
  setChatReply(reply: string | ((body: Record<string, unknown>) => string)): void;
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_CHAT_REPLY =
  'A cinematic photo of a red fox in a snowy pine forest at dawn, soft golden light, highly detailed';

export async function startOpenAiFake(
  options: { apiKey?: string | null; host?: string; port?: number } = {},
): Promise<OpenAiFake> {
  const apiKey = options.apiKey === undefined ? `sk-fake-${randomBytes(12).toString('hex')}` : options.apiKey;
  const requests: FakeRequest[] = [];
  const scripts: Record<FakeEndpoint, FakeStep[]> = { moderations: [], chat: [], images: [] };
  let chatReply: string | ((body: Record<string, unknown>) => string) = DEFAULT_CHAT_REPLY;
  let ids = 0;

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      sendError(response, 500, 'server_error', `fake failed: ${(error as Error).message}`);
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname.replace(/\/+$/, '');
    const endpoint: FakeEndpoint | null =
      pathname === '/v1/moderations'
        ? 'moderations'
        : pathname === '/v1/chat/completions'
          ? 'chat'
          : pathname === '/v1/images/generations' || pathname === '/v1/images/edits'
            ? 'images'
            : null;
    if (!endpoint || request.method !== 'POST') {
      sendError(response, 404, 'invalid_request_error', `Invalid URL (${request.method} ${pathname})`);
      return;
    }
    const raw = await readBody(request);
    let body: Record<string, unknown>;
    const isMultipart = String(request.headers['content-type'] ?? '').startsWith('multipart/form-data');
    try {
      body = isMultipart
        ? await formFields(raw, String(request.headers['content-type']))
        : (JSON.parse(raw.toString('utf8')) as Record<string, unknown>);
    } catch {
      sendError(response, 400, 'invalid_request_error', 'We could not parse the JSON body of your request.');
      return;
    }
    requests.push({
      endpoint,
      path: pathname,
      contentType: String(request.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim(),
      authorization: request.headers.authorization,
      body,
    });
    if (apiKey !== null && request.headers.authorization !== `Bearer ${apiKey}`) {
      sendError(response, 401, 'invalid_request_error', 'Incorrect API key provided.', 'invalid_api_key');
      return;
    }
    const step = scripts[endpoint].shift() ?? {};
    if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    if (response.destroyed) return;
    if (step.status && step.status >= 400) {
      if (step.status === 429) {
        response.setHeader('retry-after', step.retryAfter ?? '1');
        response.setHeader('x-ratelimit-limit-requests', '5');
        response.setHeader('x-ratelimit-remaining-requests', '0');
        response.setHeader('x-ratelimit-reset-requests', '1s');
      }
      const type =
        step.status === 429 ? 'requests' : step.status >= 500 ? 'server_error' : 'invalid_request_error';
      sendError(response, step.status, type, `Scripted failure ${step.status}.`);
      return;
    }
    ids += 1;
    if (endpoint === 'images') return answerImages(response, pathname.endsWith('/edits'), body);
    if (endpoint === 'moderations') {
      sendJson(response, 200, {
        id: `modr-${ids}`,
        model: String(body.model ?? 'omni-moderation-latest'),
        results: inputsOf(body.input).map(moderate),
      });
      return;
    }
    const content = step.content ?? (typeof chatReply === 'function' ? chatReply(body) : chatReply);
    sendJson(response, 200, {
      id: `chatcmpl-${ids}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: String(body.model ?? 'gpt-4o-mini'),
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 42, completion_tokens: 24, total_tokens: 66 },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url,
    chatBaseUrl: `${url}/v1`,
    apiKey,
    requests,
    script(endpoint, steps) {
      scripts[endpoint].push(...steps);
    },
    setChatReply(reply) {
      chatReply = reply;
    },
    reset() {
      requests.length = 0;
      scripts.moderations.length = 0;
      scripts.chat.length = 0;
      scripts.images.length = 0;
      chatReply = DEFAULT_CHAT_REPLY;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** `input` is a string, a list of strings, or a list of `{type: 'text', text}` parts. */
function inputsOf(input: unknown): string[] {
  const items = Array.isArray(input) ? input : [input];
  return items.map((item) =>
    typeof item === 'string'
      ? item
      : item && typeof item === 'object' && 'text' in item
        ? String((item as { text: unknown }).text)
        : '',
  );
}

function moderate(text: string) {
  const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  const scores = Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, 0.0001])) as Record<
    Category,
    number
  >;
  for (const [word, categories] of Object.entries(MODERATION_KEYWORDS)) {
    if (words.has(word)) for (const category of categories) scores[category] = 0.9;
  }
  const categories = Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, scores[c] >= 0.5]));
  return {
    flagged: Object.values(categories).some(Boolean),
    categories,
    category_scores: scores,
    category_applied_input_types: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, ['text']])),
  };
}

/** A multipart body's fields: strings as they are, files as `{file: Buffer, type}` (lists for `image[]`). */
async function formFields(raw: Buffer, contentType: string): Promise<Record<string, unknown>> {
  const form = await new Response(new Uint8Array(raw), {
    headers: { 'content-type': contentType },
  }).formData();
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    const item =
      typeof value === 'string' ? value : { file: Buffer.from(await value.arrayBuffer()), type: value.type };
    const key = name.replace(/\[\]$/, '');
    if (typeof value !== 'string') fields[key] = [...((fields[key] as unknown[]) ?? []), item];
    else fields[key] = item;
  }
  return fields;
}

/**
 * gpt-image: refuses a prompt with OPENAI_REFUSED_WORD as its safety system does; otherwise one
 * PNG as base64 with the usage, the scene for a prompt or the first sent image recoloured.
 */
async function answerImages(response: ServerResponse, isEdit: boolean, body: Record<string, unknown>) {
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  if (!prompt) {
    sendError(response, 400, 'invalid_request_error', "Missing required parameter: 'prompt'.");
    return;
  }
  if (prompt.toLowerCase().includes(OPENAI_REFUSED_WORD)) {
    sendJson(response, 400, {
      error: {
        message:
          'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com.',
        type: 'image_generation_user_error',
        param: null,
        code: 'moderation_blocked',
      },
    });
    return;
  }
  const images = (body.image as Array<{ file: Buffer }> | undefined) ?? [];
  if (isEdit && images.length === 0) {
    sendError(response, 400, 'invalid_request_error', "Missing required parameter: 'image'.");
    return;
  }
  const picture = isEdit ? await recolour(images[0]!.file) : await drawScene(prompt, 1);
  sendJson(response, 200, {
    created: Math.floor(Date.now() / 1000),
    data: [{ b64_json: picture.data.toString('base64') }],
    background: 'opaque',
    output_format: 'png',
    quality: String(body.quality ?? 'medium'),
    size: `${picture.width}x${picture.height}`,
    usage: {
      input_tokens: 50,
      input_tokens_details: { image_tokens: isEdit ? 40 : 0, text_tokens: 10 },
      output_tokens: 1056,
      output_tokens_details: { image_tokens: 1056, text_tokens: 0 },
      total_tokens: 1106,
    },
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendError(response: ServerResponse, status: number, type: string, message: string, code?: string) {
  if (response.headersSent || response.destroyed) return;
  sendJson(response, status, { error: { message, type, param: null, code: code ?? null } });
}
