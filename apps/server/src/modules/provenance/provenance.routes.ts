import { routes } from '@mirra/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { ProvenanceDeps } from './provenance.deps.js';
import { verifyFile } from './provenance.usecases.js';

/** The public verify page's API: anyone, signed in or not, within the upload size and a per-address rate. */
export function registerProvenanceRoutes(app: ZodApp, deps: ProvenanceDeps): void {
  serve(app, routes.verify.check, async (request) => {
    const { rateLimits, uploads } = deps.config;
    await deps.rateLimiter.hit([
      {
        key: `verify:ip:${request.ip}`,
        limit: rateLimits.verifyPerIp,
        windowSeconds: rateLimits.windowSeconds,
      },
    ]);
    const data = await readFile(request, uploads.maxMegabytes);
    const contentType = sniffType(data);
    if (!contentType) throw unsupported();
    return verifyFile(deps, { data, contentType });
  });
}

/** The type by the file's first bytes (what it claims to be does not count). */
function sniffType(data: Buffer): string | null {
  if (data.length < 12) return null;
  if (data[0] === 0xff && data[1] === 0xd8) return 'image/jpeg';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  if (data.toString('latin1', 4, 8) === 'ftyp') return 'video/mp4';
  return null;
}

const unsupported = () =>
  new AppError({
    code: 'uploads.unsupported_type',
    detail: 'Unsupported file type. Upload a JPEG, PNG or WebP picture or an MP4 video.',
  });

/** The `file` part, read up to the upload limit (the multipart plugin's); other parts are drained. */
async function readFile(request: FastifyRequest, maxMegabytes: number): Promise<Buffer> {
  let file: Buffer | null = null;
  try {
    if (request.isMultipart()) {
      for await (const part of request.parts()) {
        if (part.type === 'file' && part.fieldname === 'file' && !file) file = await part.toBuffer();
        else if (part.type === 'file') part.file.resume();
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError({
        code: 'uploads.too_big',
        detail: 'File too big',
        extra: { max_mb: maxMegabytes },
      });
    }
    throw unsupported();
  }
  if (!file || file.length === 0) throw unsupported();
  return file;
}
