import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drawScene, insetFace, recolour } from './fake-media.js';
import { json, readBody } from './provider-fake-http.js';

/**
 * A local stand-in for a ComfyUI server's HTTP API (every route also under `/api/`, as ComfyUI
 * adds), following its contracts:
 * - `POST /upload/image` (multipart `image`, `type`, `subfolder`, `overwrite`) → `{name, subfolder,
 *   type}`; a same-name file with other bytes is renamed `name (1).png` unless `overwrite`;
 * - `POST /prompt` `{prompt, client_id, prompt_id?}` → `{prompt_id, number, node_errors: {}}`;
 *   validated as ComfyUI does: a `class_type` this server lacks is 400 `invalid_prompt` ("Cannot
 *   execute because node X does not exist."), a `LoadImage` of a file never uploaded is 400
 *   `prompt_outputs_failed_validation` with `node_errors[id].errors[{type: "value_not_in_list"}]`,
 *   a client-supplied `prompt_id` that is not a UUID is 400 `invalid_prompt_id`;
 * - `GET /queue` → `{queue_running, queue_pending}` of `[number, prompt_id, prompt, extra, outputs]`;
 *   `GET /history/{id}` → `{}` until the prompt ended, then `{[id]: {prompt, outputs: {[node]:
 *   {images: [{filename, subfolder, type}]}}, status: {status_str, completed, messages}}}`;
 *   `GET /view?filename&subfolder&type` → the file; `POST /queue {delete}`, `POST /interrupt`;
 * - `GET /system_stats` (what a health check asks).
 * One prompt runs at a time, in queue order; each `GET /history/{id}` or `GET /queue` read moves
 * the running prompt a step (`steps` reads), then the next. Results are real pictures made by the
 * local imaging code: the scene for the text of a `CLIPTextEncode`, the first `LoadImage`
 * recoloured, or (ReActorFaceSwap) the source face set into the target. `down()` makes every
 * route answer 503 until `up()`.
 */
export interface ComfyFakePrompt {
  promptId: string;
  number: number;
  clientId: string | null;
  prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  state: 'pending' | 'running' | 'success' | 'error';
  reads: number;
}

export interface ComfyFake {
  url: string;
  prompts: Map<string, ComfyFakePrompt>;
  readonly queued: number;
  /** Files uploaded to `input/`. */
  inputs: Map<string, Buffer>;
  down(): void;
  up(): void;
  /** The next `count` reads of `/history/{id}` answer 503 (a server busy restarting). */
  failNextHistoryReads(count: number): void;
  /** Fails the next prompt to run with this exception (execution_error). */
  failNextExecution(message: string): void;
  close(): Promise<void>;
}

const NODE_CLASSES = new Set([
  'CheckpointLoaderSimple',
  'EmptyLatentImage',
  'CLIPTextEncode',
  'KSampler',
  'VAEDecode',
  'VAEEncode',
  'SaveImage',
  'LoadImage',
  'FluxKontextImageScale',
  'ReferenceLatent',
  'FluxGuidance',
  'ConditioningZeroOut',
  'ReActorFaceSwap',
]);

export async function startComfyUiFake(
  options: { host?: string; port?: number; steps?: number } = {},
): Promise<ComfyFake> {
  const steps = options.steps ?? 1;
  const prompts = new Map<string, ComfyFakePrompt>();
  const inputs = new Map<string, Buffer>();
  const outputs = new Map<string, Buffer>();
  const history = new Map<string, unknown>();
  let isDown = false;
  let nextFailure: string | null = null;
  let failingHistoryReads = 0;
  let number = 0;
  let queued = 0;
  let base = '';

  const pending = () =>
    [...prompts.values()].filter((p) => p.state === 'pending').sort((a, b) => a.number - b.number);
  const running = () => [...prompts.values()].find((p) => p.state === 'running');
  const item = (p: ComfyFakePrompt) => [
    p.number,
    p.promptId,
    p.prompt,
    { client_id: p.clientId },
    outputNodes(p),
  ];

  /** One step of the server's work: the running prompt goes on (or ends), else the next one starts. */
  async function tick(): Promise<void> {
    const current = running();
    if (!current) {
      const next = pending()[0];
      if (next) next.state = 'running';
      return;
    }
    current.reads++;
    if (current.reads < steps) return;
    await execute(current);
  }

  async function execute(p: ComfyFakePrompt): Promise<void> {
    const started = Date.now();
    const messages: Array<[string, Record<string, unknown>]> = [
      ['execution_start', { prompt_id: p.promptId, timestamp: started }],
      ['execution_cached', { prompt_id: p.promptId, nodes: [], timestamp: started }],
    ];
    const failure = nextFailure;
    nextFailure = null;
    if (failure) {
      p.state = 'error';
      messages.push([
        'execution_error',
        {
          prompt_id: p.promptId,
          node_id: outputNodes(p)[0] ?? '0',
          node_type: 'KSampler',
          executed: [],
          exception_message: failure,
          exception_type: 'RuntimeError',
          traceback: [],
          current_inputs: {},
          current_outputs: {},
          timestamp: Date.now(),
        },
      ]);
      history.set(p.promptId, {
        prompt: item(p),
        outputs: {},
        status: { status_str: 'error', completed: false, messages },
        meta: {},
      });
      return;
    }
    const nodes = Object.values(p.prompt);
    const loaded = nodes
      .filter((n) => n.class_type === 'LoadImage')
      .map((n) => inputs.get(String(n.inputs.image)));
    const text = String(nodes.find((n) => n.class_type === 'CLIPTextEncode')?.inputs.text ?? '');
    const seed = Number(nodes.find((n) => n.class_type === 'KSampler')?.inputs.seed ?? 1);
    const picture = nodes.some((n) => n.class_type === 'ReActorFaceSwap')
      ? await insetFace(loaded[0]!, loaded[1]!)
      : loaded[0]
        ? await recolour(loaded[0])
        : await drawScene(text, seed);
    const filename = `mirra_${String(p.number).padStart(5, '0')}_.png`;
    outputs.set(filename, picture.data);
    const nodeId = outputNodes(p)[0]!;
    p.state = 'success';
    messages.push(['execution_success', { prompt_id: p.promptId, timestamp: Date.now() }]);
    history.set(p.promptId, {
      prompt: item(p),
      outputs: { [nodeId]: { images: [{ filename, subfolder: '', type: 'output' }] } },
      status: { status_str: 'success', completed: true, messages },
      meta: { [nodeId]: { node_id: nodeId, display_node: nodeId } },
    });
  }

  function validate(prompt: ComfyFakePrompt['prompt']): { status: number; body: unknown } | null {
    for (const [id, node] of Object.entries(prompt)) {
      if (!NODE_CLASSES.has(node.class_type)) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_prompt',
              message: `Cannot execute because node ${node.class_type} does not exist.`,
              details: `Node ID '#${id}'`,
              extra_info: {},
            },
            node_errors: {},
          },
        };
      }
    }
    const nodeErrors: Record<string, unknown> = {};
    for (const [id, node] of Object.entries(prompt)) {
      if (node.class_type === 'LoadImage' && !inputs.has(String(node.inputs.image))) {
        nodeErrors[id] = {
          errors: [
            {
              type: 'value_not_in_list',
              message: 'Value not in list',
              details: `image: '${String(node.inputs.image)}' not in [${[...inputs.keys()].map((k) => `'${k}'`).join(', ')}]`,
              extra_info: { input_name: 'image' },
            },
          ],
          dependent_outputs: outputNodesOf(prompt),
          class_type: 'LoadImage',
        };
      }
    }
    if (Object.keys(nodeErrors).length > 0) {
      return {
        status: 400,
        body: {
          error: {
            type: 'prompt_outputs_failed_validation',
            message: 'Prompt outputs failed validation',
            details: '',
            extra_info: {},
          },
          node_errors: nodeErrors,
        },
      };
    }
    if (outputNodesOf(prompt).length === 0) {
      return {
        status: 400,
        body: {
          error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} },
          node_errors: {},
        },
      };
    }
    return null;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', base);
    const path = url.pathname.replace(/^\/api(?=\/)/, '').replace(/\/+$/, '') || '/';
    if (isDown) return json(response, 503, { error: 'Service Unavailable' });
    const body = await readBody(request);

    if (request.method === 'GET' && path === '/system_stats') {
      return json(response, 200, {
        system: { os: 'posix', comfyui_version: '0.3.60', python_version: '3.12', embedded_python: false },
        devices: [{ name: 'cpu', type: 'cpu', index: null, vram_total: 0, vram_free: 0 }],
      });
    }
    if (request.method === 'POST' && path === '/upload/image') {
      const form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': String(request.headers['content-type']) },
      })
        .formData()
        .catch(() => null);
      const file = form?.get('image');
      if (!(file instanceof Blob) || !(file as File).name) return text(response, 400, 'No file');
      const data = Buffer.from(await file.arrayBuffer());
      let name = (file as File).name;
      if (name.includes('..') || name.includes('/')) return text(response, 400, 'Invalid filename');
      const overwrite = ['true', '1'].includes(String(form?.get('overwrite') ?? ''));
      const existing = inputs.get(name);
      if (existing && !overwrite && !sameBytes(existing, data)) {
        const dot = name.lastIndexOf('.');
        for (let i = 1; inputs.has(name); i++)
          name = `${(file as File).name.slice(0, dot)} (${i})${(file as File).name.slice(dot)}`;
      }
      inputs.set(name, data);
      return json(response, 200, { name, subfolder: '', type: String(form?.get('type') ?? 'input') });
    }
    if (request.method === 'POST' && path === '/prompt') {
      let parsed: { prompt?: ComfyFakePrompt['prompt']; client_id?: string; prompt_id?: string };
      try {
        parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
      } catch {
        return json(response, 400, {
          error: { type: 'invalid_prompt', message: 'Invalid JSON', details: '', extra_info: {} },
          node_errors: {},
        });
      }
      if (!parsed.prompt || typeof parsed.prompt !== 'object') {
        return json(response, 400, {
          error: { type: 'no_prompt', message: 'No prompt provided', details: '', extra_info: {} },
          node_errors: {},
        });
      }
      if (
        parsed.prompt_id !== undefined &&
        !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(parsed.prompt_id)
      ) {
        return json(response, 400, {
          error: { type: 'invalid_prompt_id', message: 'Invalid prompt_id', details: '', extra_info: {} },
          node_errors: {},
        });
      }
      const invalid = validate(parsed.prompt);
      if (invalid) return json(response, invalid.status, invalid.body);
      const promptId = parsed.prompt_id ?? randomUUID();
      const entry: ComfyFakePrompt = {
        promptId,
        number: number++,
        clientId: parsed.client_id ?? null,
        prompt: parsed.prompt,
        state: 'pending',
        reads: 0,
      };
      prompts.set(promptId, entry);
      queued++;
      return json(response, 200, { prompt_id: promptId, number: entry.number, node_errors: {} });
    }
    if (request.method === 'GET' && path === '/prompt') {
      return json(response, 200, { exec_info: { queue_remaining: pending().length + (running() ? 1 : 0) } });
    }
    if (request.method === 'GET' && path === '/queue') {
      await tick();
      const current = running();
      return json(response, 200, {
        queue_running: current ? [item(current)] : [],
        queue_pending: pending().map(item),
      });
    }
    if (request.method === 'POST' && path === '/queue') {
      const { delete: ids = [], clear } = JSON.parse(body.toString('utf8') || '{}') as {
        delete?: string[];
        clear?: boolean;
      };
      for (const p of pending()) if (clear || ids.includes(p.promptId)) prompts.delete(p.promptId);
      return text(response, 200, '');
    }
    if (request.method === 'POST' && path === '/interrupt') {
      const { prompt_id: id } = JSON.parse(body.toString('utf8') || '{}') as { prompt_id?: string };
      const current = running();
      if (current && (!id || id === current.promptId)) nextFailure = 'Interrupted';
      return text(response, 200, '');
    }
    const historyMatch = /^\/history\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && historyMatch) {
      if (failingHistoryReads > 0) {
        failingHistoryReads--;
        return json(response, 503, { error: 'Service Unavailable' });
      }
      await tick();
      const entry = history.get(historyMatch[1]!);
      return json(response, 200, entry ? { [historyMatch[1]!]: entry } : {});
    }
    if (request.method === 'GET' && path === '/view') {
      const filename = url.searchParams.get('filename') ?? '';
      if (filename.includes('..') || filename.includes('/')) return text(response, 403, 'Forbidden');
      const type = url.searchParams.get('type') ?? 'output';
      const file = type === 'input' ? inputs.get(filename) : outputs.get(filename);
      if (!file) return text(response, 404, 'Not Found');
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': file.length });
      response.end(file);
      return;
    }
    return text(response, 404, 'Not Found');
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) text(response, 500, String((error as Error)?.message ?? error));
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;
  base = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url: base,
    prompts,
    get queued() {
      return queued;
    },
    inputs,
    down: () => void (isDown = true),
    up: () => void (isDown = false),
    failNextExecution: (message) => void (nextFailure = message),
    failNextHistoryReads: (count) => void (failingHistoryReads = count),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function outputNodes(p: ComfyFakePrompt): string[] {
  return outputNodesOf(p.prompt);
}
function outputNodesOf(prompt: ComfyFakePrompt['prompt']): string[] {
  return Object.entries(prompt)
    .filter(([, node]) => node.class_type === 'SaveImage')
    .map(([id]) => id);
}

const sameBytes = (a: Buffer, b: Buffer) =>
  createHash('sha256').update(a).digest('hex') === createHash('sha256').update(b).digest('hex');

function text(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(body);
}
