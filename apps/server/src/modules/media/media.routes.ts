import { routes } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { MediaDeps } from './media.deps.js';
import { AppError } from '../../shared/errors.js';
import { chooseByteRange } from '../../shared/http/byte-range.models.js';
import { safeDownloadName } from '../../shared/storage/storage-keys.js';

/** How long the store's URL that GET /api/media redirects to stays valid. */
const REDIRECT_URL_SECONDS = 3600;

/**
 * Serves stored files to whoever holds a valid signed URL (see shared/storage/media-urls.ts), as
 * streams: byte ranges for video players and resumed downloads, 304 for a copy already held.
 * A store browsers can reach themselves (S3) is not streamed through here: the answer is a
 * redirect to the store's presigned URL (links made before the move, or without static keys).
 */
export function registerMediaRoutes(app: ZodApp, deps: MediaDeps): void {
  serve(app, routes.media.file, async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    const key = deps.mediaUrls.resolve(path, request.query, deps.now());
    if (!key) throw new AppError({ code: 'common.not_found', detail: 'Not found.' });
    if (deps.storage.directUrls) {
      const now = deps.now();
      const expiresAt = new Date(
        (Math.ceil(now.getTime() / 3_600_000) + REDIRECT_URL_SECONDS / 3600) * 3_600_000,
      );
      const location = await deps.storage.directUrls.sign(key, expiresAt, {
        now,
        download: request.query.download,
      });
      void reply.header('cache-control', 'private, max-age=600');
      return reply.redirect(location, 302);
    }
    const file = await deps.storage.open(key);
    if (!file) throw new AppError({ code: 'common.not_found', detail: 'Not found.' });
    void reply.header('content-type', file.contentType);
    void reply.header('cache-control', 'private, max-age=3600');
    void reply.header('x-content-type-options', 'nosniff');
    // Stored files never change under one key, so size and time name a version.
    const etag = `"${file.size.toString(36)}-${file.modifiedAt.getTime().toString(36)}"`;
    void reply.header('etag', etag);
    void reply.header('last-modified', file.modifiedAt.toUTCString());
    void reply.header('accept-ranges', 'bytes');
    if (request.query.download) {
      const name = safeDownloadName(request.query.download);
      void reply.header('content-disposition', `attachment; filename="${name}"`);
      // Telegram's in-app downloadFile needs this origin allowed (Mini Apps 8.0).
      void reply.header('access-control-allow-origin', 'https://web.telegram.org');
    }
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    // A Range naming another version (If-Range) gets the whole new file.
    const ifRange = request.headers['if-range'];
    const range = ifRange && ifRange !== etag ? undefined : request.headers.range;
    const answer = chooseByteRange(range, file.size);
    if (answer.kind === 'unsatisfiable') {
      void reply.header('content-range', `bytes */${file.size}`);
      return reply.status(416).send();
    }
    if (answer.kind === 'partial') {
      void reply.header('content-range', `bytes ${answer.start}-${answer.end}/${file.size}`);
      void reply.header('content-length', answer.end - answer.start + 1);
      return reply.status(206).send(file.read(answer));
    }
    void reply.header('content-length', file.size);
    return reply.send(file.read());
  });
}
