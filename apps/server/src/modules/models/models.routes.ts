import { LIVE_CHECK_FRAME_NAMES, MODEL_PHOTOS_PER_REQUEST, routes } from '@mirra/contracts';
import type { FastifyRequest } from 'fastify';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import { streamStatusEvents } from '../../shared/http/status-event-stream.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { ModelsDeps } from './models.deps.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { notAFile } from '../uploads/index.js';
import { addModelPhotos, deleteModelPhoto, type IncomingPhoto } from './model-photos.usecases.js';
import { createModel, deleteModel, getModel, listModels } from './models.usecases.js';
import { startTraining } from './model-training.usecases.js';
import { takeLiveCheck, type LiveCheckFrame } from './live-check.usecases.js';
import { createConsentLink, getConsent, takeConsentLiveCheck, withdrawConsent } from './consent.usecases.js';

const r = routes.models;

/** The personal digital model: photos checked on upload, trained once, used by face swap. */
export function registerModelsRoutes(app: ZodApp, deps: ModelsDeps): void {
  serve(app, r.create, async (request) => createModel(deps, requireAuth(request).user, request.body));
  serve(app, r.list, async (request) =>
    listModels(deps, requireAuth(request).user, request.query.cursor, request.query.limit ?? 20),
  );
  serve(app, r.get, async (request) => getModel(deps, requireAuth(request).user, request.params.uuid));
  serve(app, r.remove, async (request) => {
    await deleteModel(deps, requireAuth(request).user, request.params.uuid);
    return null;
  });
  serve(app, r.addPhotos, async (request) =>
    addModelPhotos(
      deps,
      requireAuth(request).user,
      request.params.uuid,
      readPhotoParts(request, deps.config.uploads.maxBytes),
    ),
  );
  serve(app, r.removePhoto, async (request) =>
    deleteModelPhoto(deps, requireAuth(request).user, request.params.uuid, request.params.photo_uuid),
  );
  serve(app, r.liveCheck, async (request) =>
    takeLiveCheck(deps, requireAuth(request).user, request.params.uuid, () =>
      readFrameParts(request, deps.config.uploads.maxBytes),
    ),
  );
  serve(app, r.consentLink, async (request) =>
    createConsentLink(deps, requireAuth(request).user, request.params.uuid),
  );
  serve(app, routes.consents.get, async (request) => getConsent(deps, request.params.token));
  serve(app, routes.consents.liveCheck, async (request) =>
    takeConsentLiveCheck(deps, request.params.token, () =>
      readFrameParts(request, deps.config.uploads.maxBytes),
    ),
  );
  serve(app, routes.consents.withdraw, async (request) => withdrawConsent(deps, request.params.token));
  serve(app, r.train, async (request) => startTraining(deps, requireAuth(request).user, request.params.uuid));
  serve(app, r.events, async (request, reply) => {
    const user = requireAuth(request).user;
    const current = await getModel(deps, user, request.params.uuid);
    // A model collecting photos (NEW) has not started; the stream ends once training ends.
    streamStatusEvents(request, reply, {
      current,
      watch: (onEvent, onReset) => deps.modelEvents.watch(current.uuid, onEvent, onReset),
      reread: () => getModel(deps, user, current.uuid),
    });
  });
}

/** The live check's three frames (file fields named as LIVE_CHECK_FRAME_NAMES), read whole. */
async function readFrameParts(request: FastifyRequest, maxBytes: number): Promise<LiveCheckFrame[]> {
  if (!request.isMultipart()) throw notAFile();
  const count = LIVE_CHECK_FRAME_NAMES.length;
  const frames: LiveCheckFrame[] = [];
  try {
    const options = {
      limits: { files: count, fileSize: maxBytes, fields: 10, parts: count + 10 },
      throwFileSizeLimit: false,
    } as Parameters<typeof request.parts>[0];
    for await (const part of request.parts(options)) {
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      frames.push({ name: part.fieldname, data, truncated: part.file.truncated });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw fieldError('common.validation', { files: [`Send exactly ${count} camera frames.`] });
    }
    throw notAFile();
  }
  return frames;
}

/**
 * The files of a multipart body, one at a time as they arrive (each is analysed before the next is
 * read, so a 30-photo upload never sits in memory whole). Oversized files are cut at the limit and
 * flagged rather than failing the whole upload.
 */
async function* readPhotoParts(request: FastifyRequest, maxBytes: number): AsyncGenerator<IncomingPhoto> {
  if (!request.isMultipart()) throw notAFile();
  try {
    // `throwFileSizeLimit` is honoured per call at run time (@fastify/multipart 9), though its
    // types only list busboy's options there.
    const options = {
      limits: {
        files: MODEL_PHOTOS_PER_REQUEST,
        fileSize: maxBytes,
        fields: 10,
        parts: MODEL_PHOTOS_PER_REQUEST + 10,
      },
      throwFileSizeLimit: false,
    } as Parameters<typeof request.parts>[0];
    const parts = request.parts(options);
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      yield { filename: part.filename || 'photo', data, truncated: part.file.truncated };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw fieldError('common.validation', {
        files: [`Send at most ${MODEL_PHOTOS_PER_REQUEST} photos at once.`],
      });
    }
    throw notAFile();
  }
}
