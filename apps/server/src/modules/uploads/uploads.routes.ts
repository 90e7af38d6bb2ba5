import { routes } from '@mirra/contracts';
import type { FastifyRequest } from 'fastify';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { UploadsDeps } from './uploads.deps.js';
import { AppError } from '../../shared/errors.js';
import { notAFile, oneFileOnly, uploadTooBig } from './uploads.errors.js';
import { createUpload, deleteUpload, getUpload, type UploadedFile } from './uploads.usecases.js';

const r = routes.uploads;

/** Photos for editing, styling and face swap: private to their owner, served by signed URLs. */
export function registerUploadsRoutes(app: ZodApp, deps: UploadsDeps): void {
  serve(app, r.create, async (request) =>
    createUpload(deps, requireAuth(request).user.id, () =>
      readFilePart(request, deps.config.uploads.maxMegabytes),
    ),
  );
  serve(app, r.get, async (request) => getUpload(deps, requireAuth(request).user.id, request.params.uuid));
  serve(app, r.remove, async (request) => {
    await deleteUpload(deps, requireAuth(request).user.id, request.params.uuid);
    return null;
  });
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
