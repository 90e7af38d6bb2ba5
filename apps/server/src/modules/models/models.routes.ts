import { streamStatusEvents } from '../../shared/http/status-event-stream.js';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  MODEL_PHOTOS_PER_REQUEST,
  ZCreateModelBody,
  ZCursorQuery,
  ZModel,
  ZModelList,
  ZModelPhotosUploaded,
} from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { ModelsDeps } from './models.deps.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { notAFile } from '../uploads/index.js';
import { addModelPhotos, deleteModelPhoto, type IncomingPhoto } from './model-photos.usecases.js';
import { createModel, deleteModel, getModel, listModels } from './models.usecases.js';
import { startTraining } from './model-training.usecases.js';

const tags = ['models'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];
const ZModelParams = z.object({ uuid: z.string().max(64) });
const ZModelPhotoParams = z.object({ uuid: z.string().max(64), photo_uuid: z.string().max(64) });

/** The personal digital model: photos checked on upload, trained once, used by face swap. */
export function registerModelsRoutes(app: ZodApp, deps: ModelsDeps): void {
  app.post(
    '/api/models/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Create a digital model (then add photos and train it)',
        body: ZCreateModelBody,
        response: { 201: ZModel },
        security,
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createModel(deps, requireAuth(request).user, request.body)),
  );

  app.get(
    '/api/models/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'My digital models, newest first',
        querystring: ZCursorQuery,
        response: { 200: ZModelList },
        security,
      },
    },
    async (request) =>
      listModels(deps, requireAuth(request).user, request.query.cursor, request.query.limit ?? 20),
  );

  app.get(
    '/api/models/:uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary:
          'One of my models: status, training progress, reference count and photos with their verdicts',
        params: ZModelParams,
        response: { 200: ZModel },
        security,
      },
    },
    async (request) => getModel(deps, requireAuth(request).user, request.params.uuid),
  );

  app.delete(
    '/api/models/:uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Delete a model with all its photos (training in progress is stopped and refunded)',
        params: ZModelParams,
        response: { 204: z.null().describe('No content') },
        security,
      },
    },
    async (request, reply) => {
      await deleteModel(deps, requireAuth(request).user, request.params.uuid);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/models/:uuid/photos/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: `Add photos (multipart, one or many files, up to ${MODEL_PHOTOS_PER_REQUEST}); each is checked and answered with its verdict`,
        description:
          'Checks every photo with real face analysis: exactly one face (`face.none`, `face.multiple`), large ' +
          'enough (`face.too_small`), sharp (`photo.blurry`), the same person as the other photos ' +
          '(`face.different_person`); tips that never refuse a photo: `photo.low_light`, `face.glasses`, ' +
          '`pose.front` / `pose.side`. Files that are not a readable photo get `file.*` problems and are not ' +
          'stored. Nothing is charged. Before training, earlier photos are re-judged with the new ones.',
        consumes: ['multipart/form-data'],
        params: ZModelParams,
        response: { 201: ZModelPhotosUploaded },
        security,
      },
    },
    async (request, reply) => {
      const uploaded = await addModelPhotos(
        deps,
        requireAuth(request).user,
        request.params.uuid,
        readPhotoParts(request, deps.config.uploads.maxBytes),
      );
      return reply.status(201).send(uploaded);
    },
  );

  app.delete(
    '/api/models/:uuid/photos/:photo_uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Delete one photo of a model and its files',
        params: ZModelPhotoParams,
        response: { 200: ZModel },
        security,
      },
    },
    async (request) =>
      deleteModelPhoto(deps, requireAuth(request).user, request.params.uuid, request.params.photo_uuid),
  );

  app.post(
    '/api/models/:uuid/train/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary:
          'Train the model: charges PRICE_MODEL_TRAINING credits and queues training (refunded if it fails)',
        params: ZModelParams,
        response: { 202: ZModel },
        security,
      },
    },
    async (request, reply) =>
      reply.status(202).send(await startTraining(deps, requireAuth(request).user, request.params.uuid)),
  );

  app.get(
    '/api/models/:uuid/events/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Server-sent events: `status` events {uuid, status, progress} until training ends',
        params: ZModelParams,
        security,
      },
    },
    async (request, reply) => {
      const user = requireAuth(request).user;
      const current = await getModel(deps, user, request.params.uuid);
      // A model collecting photos (NEW) has not started; the stream ends once training ends.
      streamStatusEvents(request, reply, {
        current,
        watch: (onEvent, onReset) => deps.modelEvents.watch(current.uuid, onEvent, onReset),
        reread: () => getModel(deps, user, current.uuid),
      });
    },
  );
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
