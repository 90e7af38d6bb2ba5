import { MessageChannel, type MessagePort } from 'node:worker_threads';
import {
  createFaceAnalyzer,
  createPersonSegmenter,
  type FaceAnalyzer,
  type PersonSegmenter,
} from '@mirra/imaging';
import type { ThreadPool } from '../../shared/thread-pool.js';
import {
  EngineError,
  type EngineContext,
  type EngineErrorCode,
  type EngineFaceModel,
  type EngineOutput,
  type EngineRequest,
} from '../engine.types.js';
import { cancelled, runLocalEngine, type LocalVideoOptions } from './local.render.js';

/** The pool task name of a local render: the thread entry exports `renderLocally` under it. */
export const LOCAL_RENDER_TASK = 'renderLocally';

/** A request as it crosses to a thread: everything but the digital model's photo loader. */
type ThreadRequest = Omit<EngineRequest, 'faceModel'> & {
  faceModel?: Omit<EngineFaceModel, 'loadReferencePhoto'>;
};

export interface LocalRenderTask {
  request: ThreadRequest;
  video: LocalVideoOptions;
  /** The render's own channel to the caller (progress, reference photos, stop, the outcome). */
  port: MessagePort;
}

/** An EngineError as plain data (structured clone keeps only an error's message and name). */
interface SerialisedError {
  engine: boolean;
  code: EngineErrorCode;
  message: string;
  retryable: boolean;
  reason: EngineError['reason'];
  retryAfterSeconds: number | null;
  stack?: string;
}

/** Why a render was stopped, as the caller's signal said it. */
type StopReason = { kind: 'engine'; error: SerialisedError } | { kind: 'timeout' } | { kind: 'stopped' };

type ToThread =
  | { type: 'stop'; reason: StopReason }
  | { type: 'photo'; id: number; data: Uint8Array }
  | { type: 'photo_failed'; id: number; message: string };

type FromThread =
  | { type: 'progress'; percent: number }
  | { type: 'load_photo'; id: number; photoId: string }
  | { type: 'done'; output: EngineOutput }
  | { type: 'failed'; error: SerialisedError };

// ---------------------------------------------------------------------------------------------------
// The calling side

/**
 * Runs the local engine on a pool thread, the caller's event loop only relaying messages:
 * progress reports reach `context.onProgress` in order; the digital model's reference photos are
 * loaded here when the thread asks for one; an aborted signal stops waiting at once (rejecting as
 * the in-thread engine would) and tells the thread to stop at its next checkpoint; an error in the
 * thread comes back as the same EngineError (or a plain Error with its message).
 */
export function renderInThread(
  pool: ThreadPool,
  request: EngineRequest,
  context: EngineContext,
  video: LocalVideoOptions,
): Promise<EngineOutput> {
  if (context.signal.aborted) return Promise.reject(cancelled(context.signal));
  const { port1: here, port2: there } = new MessageChannel();
  const { faceModel, ...rest } = request;
  const task: LocalRenderTask = {
    request: faceModel ? { ...rest, faceModel: withoutLoader(faceModel) } : rest,
    video,
    port: there,
  };
  return new Promise<EngineOutput>((resolve, reject) => {
    let settled = false;
    let reports = Promise.resolve();
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      context.signal.removeEventListener('abort', onAbort);
      here.close();
      outcome();
    };
    const stopThread = (reason: StopReason) => {
      const message: ToThread = { type: 'stop', reason };
      here.postMessage(message);
    };
    const onAbort = () => {
      stopThread(stopReason(context.signal.reason));
      settle(() => reject(cancelled(context.signal)));
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    here.on('message', (message: FromThread) => {
      switch (message.type) {
        case 'progress':
          // Reports are chained so they reach the database in order, never two at once; none is
          // made once the render has ended (cancelled); a report that fails fails the render, as
          // it does on the caller's own thread.
          reports = reports
            .then(() => (settled ? undefined : context.onProgress(message.percent)))
            .catch((error: unknown) => {
              stopThread({ kind: 'stopped' });
              settle(() => reject(error));
            });
          return;
        case 'load_photo':
          void answerPhotoRequest(here, faceModel, message);
          return;
        case 'done':
          void reports.then(() => settle(() => resolve(outputFromThread(message.output))));
          return;
        case 'failed':
          void reports.then(() => settle(() => reject(errorFromThread(message.error))));
          return;
      }
    });
    pool.run(LOCAL_RENDER_TASK, task, { transferList: [there] }).catch((error: unknown) => {
      // The thread itself died (or the pool closed under it): our fault, retried and refunded.
      settle(() =>
        reject(
          new EngineError(
            'engine.unavailable',
            `The local engine's thread stopped before it finished: ${(error as Error)?.message ?? String(error)}`,
            true,
          ),
        ),
      );
    });
  });
}

async function answerPhotoRequest(
  port: MessagePort,
  faceModel: EngineFaceModel | undefined,
  message: { id: number; photoId: string },
): Promise<void> {
  let answer: ToThread;
  try {
    if (!faceModel) throw new Error('This request has no digital model.');
    const data = await faceModel.loadReferencePhoto(message.photoId);
    answer = { type: 'photo', id: message.id, data };
  } catch (error) {
    answer = { type: 'photo_failed', id: message.id, message: (error as Error)?.message ?? String(error) };
  }
  try {
    port.postMessage(answer);
  } catch {
    // The render already ended (port closed): nobody waits for this photo.
  }
}

function withoutLoader(faceModel: EngineFaceModel): ThreadRequest['faceModel'] {
  const { loadReferencePhoto: _loader, ...data } = faceModel;
  return data;
}

function stopReason(reason: unknown): StopReason {
  if (reason instanceof EngineError) return { kind: 'engine', error: serialiseError(reason) };
  if (reason instanceof Error && reason.name === 'TimeoutError') return { kind: 'timeout' };
  return { kind: 'stopped' };
}

/** Buffers cross threads as plain Uint8Arrays: made Buffers again, sharing the same memory. */
function outputFromThread(output: EngineOutput): EngineOutput {
  return {
    ...output,
    data: asBuffer(output.data),
    ...(output.poster ? { poster: asBuffer(output.poster) } : {}),
    ...(output.checkedFrames ? { checkedFrames: output.checkedFrames.map(asBuffer) } : {}),
  };
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function serialiseError(error: unknown): SerialisedError {
  if (error instanceof EngineError) {
    return {
      engine: true,
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      reason: error.reason,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  const plain = error instanceof Error ? error : new Error(String(error));
  return {
    engine: false,
    code: 'engine.failed',
    message: plain.message,
    retryable: true,
    reason: null,
    retryAfterSeconds: null,
    stack: plain.stack,
  };
}

function errorFromThread(error: SerialisedError): Error {
  if (error.engine) {
    return new EngineError(error.code, error.message, error.retryable, error.reason, error.retryAfterSeconds);
  }
  const plain = new Error(error.message);
  if (error.stack) plain.stack = error.stack;
  return plain;
}

// ---------------------------------------------------------------------------------------------------
// The thread side

// One face analyser and one person segmenter per thread: their models load on first use and stay.
let threadTools: { faceAnalyzer: FaceAnalyzer; personSegmenter: PersonSegmenter } | null = null;

/**
 * The pool task: runs the local engine on this thread with a context that speaks through the
 * task's port, and posts the outcome there last (after every progress report, in order).
 */
export async function renderLocally(task: LocalRenderTask): Promise<void> {
  threadTools ??= { faceAnalyzer: createFaceAnalyzer(), personSegmenter: createPersonSegmenter() };
  const { port } = task;
  const controller = new AbortController();
  const pendingPhotos = new Map<number, { resolve: (data: Buffer) => void; reject: (e: Error) => void }>();
  let nextPhotoId = 0;
  const send = (message: FromThread) => port.postMessage(message);
  const stop = (reason: unknown) => {
    controller.abort(reason);
    // A photo the caller will no longer send must not hold the render up.
    for (const pending of pendingPhotos.values()) pending.reject(new Error('The render was stopped.'));
    pendingPhotos.clear();
  };
  // The caller stopped waiting (its port closed): stop at the next checkpoint.
  port.on('close', () => stop(abortReason({ kind: 'stopped' })));
  port.on('message', (message: ToThread) => {
    if (message.type === 'stop') {
      stop(abortReason(message.reason));
      return;
    }
    const pending = pendingPhotos.get(message.id);
    pendingPhotos.delete(message.id);
    if (message.type === 'photo') pending?.resolve(asBuffer(message.data));
    else pending?.reject(new Error(message.message));
  });
  const { faceModel, ...rest } = task.request;
  const request: EngineRequest = {
    ...rest,
    images: rest.images.map((image) => ({ ...image, data: asBuffer(image.data) })),
  };
  if (faceModel) {
    request.faceModel = {
      ...faceModel,
      loadReferencePhoto: (photoId: string) =>
        new Promise<Buffer>((resolve, reject) => {
          const id = nextPhotoId++;
          pendingPhotos.set(id, { resolve, reject });
          send({ type: 'load_photo', id, photoId });
        }),
    };
  }
  try {
    const output = await runLocalEngine(
      request,
      { signal: controller.signal, onProgress: (percent) => send({ type: 'progress', percent }) },
      threadTools,
      task.video,
    );
    send({ type: 'done', output });
  } catch (error) {
    send({ type: 'failed', error: serialiseError(error) });
  } finally {
    port.close();
  }
}

function abortReason(reason: StopReason): unknown {
  switch (reason.kind) {
    case 'engine':
      return errorFromThread(reason.error);
    case 'timeout':
      return new DOMException('The operation timed out.', 'TimeoutError');
    case 'stopped':
      return new DOMException('The operation was aborted.', 'AbortError');
  }
}
