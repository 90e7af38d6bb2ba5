import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { drawScene, encodeStillVideo, insetFace, recolour } from './fake-media.js';
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
 * - `GET /system_stats` (what a health check asks);
 * - the WebSocket `/ws?clientId=<id>`: `status` with the `sid` on connect (and to every socket when
 *   the queue changes); a prompt's execution messages only to the socket of its `client_id`, in
 *   ComfyUI's order: `execution_start` → `execution_cached` → per node `executing {node}` (a
 *   sampler then `progress {value, max}` per step; an output node `executed {output}`) →
 *   `execution_success` → `executing {node: null}` after the history entry is written; on failure
 *   `execution_error`, on interrupt `execution_interrupted`. A client id connecting again while
 *   its prompt runs is told the node running (as ComfyUI does).
 * One prompt runs at a time, in queue order, one step (a node, or a sampler step; `steps` per
 * sampler) each `stepMs`. A `LoraLoader`'s `lora_name` must be a file in `lorasDir` (ComfyUI's
 * loras folder). Results are real media made by the local imaging code: the scene for the text of a
 * `CLIPTextEncode`, the first `LoadImage` recoloured, (ReActorFaceSwap) the source face set into
 * the target, (ApplyInstantID) the face set into the scene, (SaveVideo) an H.264 MP4 of the
 * photo as long as the workflow's frames at its frame rate. `down()` makes every route answer 503
 * until `up()`.
 */
export interface ComfyFakePrompt {
  promptId: string;
  number: number;
  clientId: string | null;
  prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  state: 'pending' | 'running' | 'success' | 'error';
  /** Execution steps done so far. */
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
  /** Stops the work right after a sampler's `progress` of this value was sent; resolves then. */
  holdAtProgress(value: number): Promise<void>;
  /** Goes on after a hold. */
  release(): void;
  /** Closes every WebSocket connection (a proxy or the network dropping them). */
  dropSockets(): void;
  /** `GET /history/{id}` reads answered so far. */
  readonly historyReads: number;
  /** The WebSocket messages sent, with the client id each went to (null: to every socket). */
  sent: Array<{ clientId: string | null; type: string; data: Record<string, unknown> }>;
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
  'LoraLoader',
  'LoraLoaderModelOnly',
  'InstantIDModelLoader',
  'InstantIDFaceAnalysis',
  'ControlNetLoader',
  'ApplyInstantID',
  'CLIPLoader',
  'LTXVImgToVideo',
  'EmptyLTXVLatentVideo',
  'LTXVConditioning',
  'KSamplerSelect',
  'LTXVScheduler',
  'SamplerCustom',
  'CreateVideo',
  'SaveVideo',
]);
/** Nodes that report `progress` per step; nodes that write the outputs. */
const SAMPLERS = new Set(['KSampler', 'KSamplerAdvanced', 'SamplerCustom', 'SamplerCustomAdvanced']);
const OUTPUT_NODES = new Set(['SaveImage', 'SaveVideo']);

export async function startComfyUiFake(
  options: { host?: string; port?: number; steps?: number; stepMs?: number; lorasDir?: string } = {},
): Promise<ComfyFake> {
  const steps = options.steps ?? 3;
  const stepMs = options.stepMs ?? 15;
  const clients = new Map<string, WebSocket>();
  const sent: ComfyFake['sent'] = [];
  let historyReads = 0;
  let holdAt: { value: number; resolve: () => void } | null = null;
  let held = false;
  let busy = false;
  /** The running prompt's remaining steps. */
  let plan: Array<() => Promise<void> | void> = [];
  let executingNode: string | null = null;
  let runningMessages: Array<[string, Record<string, unknown>]> = [];
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

  function send(clientId: string | null, type: string, data: Record<string, unknown>): void {
    sent.push({ clientId, type, data });
    const text = JSON.stringify({ type, data });
    if (clientId === null) {
      for (const socket of clients.values()) socket.send(text);
    } else {
      clients.get(clientId)?.send(text);
    }
  }
  const queueRemaining = () => pending().length + (running() ? 1 : 0);
  const broadcastStatus = () =>
    send(null, 'status', { status: { exec_info: { queue_remaining: queueRemaining() } } });

  /** One step of the server's work: the running prompt's next step, else the next prompt starts. */
  async function tick(): Promise<void> {
    if (busy || held || isDown) return;
    busy = true;
    try {
      const current = running();
      if (!current) {
        const next = pending()[0];
        if (next) start(next);
        return;
      }
      const step = plan.shift();
      current.reads++;
      if (step) await step();
    } finally {
      busy = false;
    }
  }

  /** The steps of a prompt's run, as ComfyUI sends them. */
  function start(p: ComfyFakePrompt): void {
    p.state = 'running';
    const messages: Array<[string, Record<string, unknown>]> = [];
    runningMessages = messages;
    const say = (type: string, data: Record<string, unknown>, keep = true) => {
      const full = { ...data, prompt_id: p.promptId };
      if (keep) messages.push([type, { ...full, timestamp: Date.now() }]);
      send(p.clientId, type, keep ? { ...full, timestamp: Date.now() } : full);
    };
    const failure = nextFailure || null;
    nextFailure = null;
    plan = [
      () => {
        broadcastStatus();
        say('execution_start', {});
        say('execution_cached', { nodes: [] });
      },
    ];
    for (const id of executionOrder(p.prompt)) {
      const node = p.prompt[id]!;
      plan.push(() => {
        executingNode = id;
        say('executing', { node: id, display_node: id }, false);
      });
      if (SAMPLERS.has(node.class_type)) {
        if (failure !== null) {
          plan.push(() => fail(p, id, node.class_type, failure));
          return;
        }
        for (let value = 1; value <= steps; value++) {
          plan.push(() => {
            say('progress', { value, max: steps, node: id }, false);
            if (holdAt?.value === value) {
              held = true;
              holdAt.resolve();
              holdAt = null;
            }
          });
        }
      }
    }
    if (failure !== null) {
      plan.push(() => fail(p, outputNodes(p)[0] ?? '0', 'SaveImage', failure));
      return;
    }
    plan.push(async () => {
      const { nodeId, output } = await produce(p);
      say('executed', { node: nodeId, display_node: nodeId, output }, false);
      p.state = 'success';
      executingNode = null;
      say('execution_success', {});
      history.set(p.promptId, {
        prompt: item(p),
        outputs: { [nodeId]: output },
        status: { status_str: 'success', completed: true, messages },
        meta: { [nodeId]: { node_id: nodeId, display_node: nodeId } },
      });
      send(p.clientId, 'executing', { node: null, prompt_id: p.promptId });
      broadcastStatus();
    });
  }

  function fail(p: ComfyFakePrompt, nodeId: string, nodeType: string, failure: string): void {
    const messages = runningMessages;
    plan = [];
    p.state = 'error';
    executingNode = null;
    const interrupted = failure === 'Interrupted';
    const event = interrupted ? 'execution_interrupted' : 'execution_error';
    const data: Record<string, unknown> = interrupted
      ? { prompt_id: p.promptId, node_id: nodeId, node_type: nodeType, executed: [], timestamp: Date.now() }
      : {
          prompt_id: p.promptId,
          node_id: nodeId,
          node_type: nodeType,
          executed: [],
          exception_message: failure,
          exception_type: 'RuntimeError',
          traceback: [],
          current_inputs: {},
          current_outputs: {},
          timestamp: Date.now(),
        };
    messages.push([event, data]);
    send(p.clientId, event, data);
    history.set(p.promptId, {
      prompt: item(p),
      outputs: {},
      status: { status_str: 'error', completed: false, messages },
      meta: {},
    });
    send(p.clientId, 'executing', { node: null, prompt_id: p.promptId });
    broadcastStatus();
  }

  /** The prompt's output: a picture, or a video when it saves one. */
  async function produce(p: ComfyFakePrompt) {
    const nodes = Object.values(p.prompt);
    const has = (type: string) => nodes.find((n) => n.class_type === type);
    const loaded = nodes
      .filter((n) => n.class_type === 'LoadImage')
      .map((n) => inputs.get(String(n.inputs.image))!);
    const text = String(has('CLIPTextEncode')?.inputs.text ?? '');
    const seed = Number(has('KSampler')?.inputs.seed ?? has('SamplerCustom')?.inputs.noise_seed ?? 1);
    const nodeId = outputNodes(p)[0]!;
    const name = `mirra_${String(p.number).padStart(5, '0')}_`;
    const saveVideo = has('SaveVideo');
    if (saveVideo) {
      const fps = Number(has('CreateVideo')?.inputs.fps ?? 24);
      const frames = Number((has('LTXVImgToVideo') ?? has('EmptyLTXVLatentVideo'))?.inputs.length ?? fps * 2);
      const video = await encodeStillVideo(
        loaded[0] ?? (await drawScene(text, seed)).data,
        Math.max(1, Math.round(frames / fps)),
      );
      const prefix = String(saveVideo.inputs.filename_prefix ?? 'ComfyUI');
      const subfolder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
      const filename = `${name}.mp4`;
      outputs.set(`${subfolder}/${filename}`, video);
      return { nodeId, output: { images: [{ filename, subfolder, type: 'output' }], animated: [true] } };
    }
    const picture = has('ReActorFaceSwap')
      ? await insetFace(loaded[0]!, loaded[1]!)
      : has('ApplyInstantID')
        ? await insetFace((await drawScene(text, seed)).data, loaded[0]!)
        : loaded[0]
          ? await recolour(loaded[0])
          : await drawScene(text, seed);
    const filename = `${name}.png`;
    outputs.set(`/${filename}`, picture.data);
    return { nodeId, output: { images: [{ filename, subfolder: '', type: 'output' }] } };
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
    const loras = options.lorasDir && existsSync(options.lorasDir) ? readdirSync(options.lorasDir) : [];
    for (const [id, node] of Object.entries(prompt)) {
      const isLora = node.class_type === 'LoraLoader' || node.class_type === 'LoraLoaderModelOnly';
      if (isLora && !loras.includes(String(node.inputs.lora_name))) {
        nodeErrors[id] = {
          errors: [
            {
              type: 'value_not_in_list',
              message: 'Value not in list',
              details: `lora_name: '${String(node.inputs.lora_name)}' not in [${loras.map((k) => `'${k}'`).join(', ')}]`,
              extra_info: { input_name: 'lora_name' },
            },
          ],
          dependent_outputs: outputNodesOf(prompt),
          class_type: node.class_type,
        };
      }
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
      broadcastStatus();
      return json(response, 200, { prompt_id: promptId, number: entry.number, node_errors: {} });
    }
    if (request.method === 'GET' && path === '/prompt') {
      return json(response, 200, { exec_info: { queue_remaining: pending().length + (running() ? 1 : 0) } });
    }
    if (request.method === 'GET' && path === '/queue') {
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
      if (current && (!id || id === current.promptId)) {
        plan = [() => fail(current, executingNode ?? '0', 'KSampler', 'Interrupted')];
      }
      return text(response, 200, '');
    }
    const historyMatch = /^\/history\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && historyMatch) {
      if (failingHistoryReads > 0) {
        failingHistoryReads--;
        return json(response, 503, { error: 'Service Unavailable' });
      }
      historyReads++;
      const entry = history.get(historyMatch[1]!);
      return json(response, 200, entry ? { [historyMatch[1]!]: entry } : {});
    }
    if (request.method === 'GET' && path === '/view') {
      const filename = url.searchParams.get('filename') ?? '';
      const subfolder = url.searchParams.get('subfolder') ?? '';
      if (filename.includes('..') || filename.includes('/') || subfolder.includes('..'))
        return text(response, 403, 'Forbidden');
      const type = url.searchParams.get('type') ?? 'output';
      const file = type === 'input' ? inputs.get(filename) : outputs.get(`${subfolder}/${filename}`);
      if (!file) return text(response, 404, 'Not Found');
      const contentType = filename.endsWith('.mp4') ? 'video/mp4' : 'image/png';
      response.writeHead(200, { 'content-type': contentType, 'content-length': file.length });
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
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', base);
    if (!['/ws', '/api/ws'].includes(url.pathname) || isDown) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const sid = url.searchParams.get('clientId') || randomUUID().replace(/-/g, '');
      clients.get(sid)?.terminate();
      clients.set(sid, ws);
      ws.on('close', () => {
        if (clients.get(sid) === ws) clients.delete(sid);
      });
      ws.send(
        JSON.stringify({
          type: 'status',
          data: { status: { exec_info: { queue_remaining: queueRemaining() } }, sid },
        }),
      );
      const current = running();
      if (current && current.clientId === sid && executingNode !== null) {
        ws.send(
          JSON.stringify({
            type: 'executing',
            data: { node: executingNode, display_node: executingNode, prompt_id: current.promptId },
          }),
        );
      }
    });
  });
  const timer = setInterval(() => void tick().catch(() => undefined), stepMs);
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
    holdAtProgress: (value) => new Promise<void>((resolve) => void (holdAt = { value, resolve })),
    release: () => void (held = false),
    dropSockets: () => {
      for (const socket of clients.values()) socket.terminate();
      clients.clear();
    },
    get historyReads() {
      return historyReads;
    },
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        for (const socket of clients.values()) socket.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The nodes in the order ComfyUI runs them: each after the nodes its inputs link to. */
function executionOrder(prompt: ComfyFakePrompt['prompt']): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id) || !prompt[id]) return;
    seen.add(id);
    for (const value of Object.values(prompt[id].inputs)) {
      if (Array.isArray(value) && typeof value[0] === 'string') visit(value[0]);
    }
    order.push(id);
  };
  for (const id of Object.keys(prompt)) visit(id);
  return order;
}

function outputNodes(p: ComfyFakePrompt): string[] {
  return outputNodesOf(p.prompt);
}
function outputNodesOf(prompt: ComfyFakePrompt['prompt']): string[] {
  return Object.entries(prompt)
    .filter(([, node]) => OUTPUT_NODES.has(node.class_type))
    .map(([id]) => id);
}

const sameBytes = (a: Buffer, b: Buffer) =>
  createHash('sha256').update(a).digest('hex') === createHash('sha256').update(b).digest('hex');

function text(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(body);
}
