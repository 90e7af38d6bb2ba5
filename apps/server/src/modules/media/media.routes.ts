import { z } from 'zod';
import type { ZodApp } from '../../app/build-server.js';
import type { AppDeps } from '../../app/deps.js';
import { AppError } from '../../shared/errors.js';

/** Serves stored files to whoever holds a valid signed URL (see shared/storage/media-urls.ts). */
export function registerMediaRoutes(app: ZodApp, deps: AppDeps): void {
  app.get(
    '/api/media/*',
    {
      schema: {
        hide: true,
        querystring: z.object({
          exp: z.string().optional(),
          sig: z.string().optional(),
          download: z.string().max(120).optional(),
        }),
      },
    },
    async (request, reply) => {
      const path = (request.params as { '*': string })['*'];
      const key = deps.mediaUrls.resolve(path, request.query, deps.now());
      if (!key) throw new AppError({ code: 'common.not_found', detail: 'Not found.' });
      const file = await deps.storage.get(key);
      if (!file) throw new AppError({ code: 'common.not_found', detail: 'Not found.' });
      void reply.header('content-type', file.contentType);
      void reply.header('cache-control', 'private, max-age=3600');
      void reply.header('x-content-type-options', 'nosniff');
      if (request.query.download) {
        const name = request.query.download.replace(/[^A-Za-z0-9._-]/g, '_');
        void reply.header('content-disposition', `attachment; filename="${name}"`);
        // Telegram's in-app downloadFile needs this origin allowed (Mini Apps 8.0).
        void reply.header('access-control-allow-origin', 'https://web.telegram.org');
      }
      return reply.send(file.data);
    },
  );
}
