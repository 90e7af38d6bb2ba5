import { ZUpload } from '@mirra/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { UploadsDeps } from './uploads.deps.js';
import { AppError } from '../../shared/errors.js';
import { notAFile, oneFileOnly, uploadTooBig } from './uploads.errors.js';
import { createUpload, deleteUpload, getUpload, type UploadedFile } from './uploads.usecases.js';

const tags = ['uploads'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];
const ZUploadParams = z.object({ uuid: z.string().max(64) });

/** Photos for editing, styling and face swap: private to their owner, served by signed URLs. */
export function registerUploadsRoutes(app: ZodApp, deps: UploadsDeps): void {
  app.post(
    '/api/uploads/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Upload a photo (multipart, field `file`: JPEG, PNG, WebP or HEIC)',
        consumes: ['multipart/form-data'],
        response: { 201: ZUpload },
        security,
      },
    },
    async (request, reply) => {
      const { user } = requireAuth(request);
      const upload = await createUpload(deps, user.id, () =>
        readFilePart(request, deps.config.uploads.maxMegabytes),
      );
      return reply.status(201).send(upload);
    },
  );

  app.get(
    '/api/uploads/:uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'One of my uploads',
        params: ZUploadParams,
        response: { 200: ZUpload },
        security,
      },
    },
    async (request) => getUpload(deps, requireAuth(request).user.id, request.params.uuid),
  );

  app.delete(
    '/api/uploads/:uuid/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Delete one of my uploads and its file',
        params: ZUploadParams,
        response: { 204: z.null().describe('No content') },
        security,
      },
    },
    async (request, reply) => {
      await deleteUpload(deps, requireAuth(request).user.id, request.params.uuid);
      return reply.status(204).send(null);
    },
  );
}

/**
 * The `file` part of a multipart body, read into memory up to the configured limit (registered
 * with @fastify/multipart, one file per request); null when there is none. Every part is read to
 * the end, so nothing is left unread on the connection; a second file is refused.
 */
async function readFilePart(request: FastifyRequest, maxMegabytes: number): Promise<UploadedFile | null> {
  if (!request.isMultipart()) return null;
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname === 'file' && !file) file = { data: await part.toBuffer() };
      else part.file.resume();
    }
    return file;
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw uploadTooBig(maxMegabytes);
    if (code === 'FST_FILES_LIMIT') throw oneFileOnly();
    // A broken multipart body (cut off, bad boundary) is the client's, not a server error.
    throw notAFile();
  }
}
