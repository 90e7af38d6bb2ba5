import { pickLanguage, routes } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { PhotoPacksDeps } from './photo-packs.deps.js';
import { photoPackCatalogue } from './photo-packs.usecases.js';

/** The catalogue: anyone may look; buying is starting a `photo_pack` generation. */
export function registerPhotoPackRoutes(app: ZodApp, deps: PhotoPacksDeps): void {
  serve(app, routes.photoPacks.catalogue, async (request) =>
    photoPackCatalogue(deps, request.query.language ?? pickLanguage(request.headers['accept-language'])),
  );
}
