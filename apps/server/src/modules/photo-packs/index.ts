/**
 * The public face of the photo packs module: the catalogue, what one purchase of a pack makes
 * (the generations module charges and runs it), and the console's packs.
 */
export type { PhotoPacksDeps } from './photo-packs.deps.js';
export { registerPhotoPackRoutes } from './photo-packs.routes.js';
export { photoPackCatalogue, photoPackRun, savePhotoPack, staffPhotoPacks } from './photo-packs.usecases.js';
