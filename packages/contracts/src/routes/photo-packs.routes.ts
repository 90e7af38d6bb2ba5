import { defineRoute } from './define-route.js';

/** The photo pack catalogue (a pack is bought by starting a `photo_pack` generation). */
export const photoPacksRoutes = {
  catalogue: defineRoute({
    method: 'GET',
    path: '/api/photo_packs/',
    auth: 'optional',
    tags: ['photo packs'],
    summary: 'The photo packs on sale, in a language, each with the price of the whole pack',
    query: 'ZPhotoPackListQuery',
    response: { 200: 'ZPhotoPackList' },
  }),
};

/** An album (the pictures of one run, such as a photo pack) as one ZIP. */
export const generationSetsRoutes = {
  archiveLink: defineRoute({
    method: 'POST',
    path: '/api/generations/sets/:uuid/archive/',
    auth: 'required',
    tags: ['generations'],
    summary: 'A link, valid for 15 minutes, to download the finished pictures of one of my runs as a ZIP',
    params: 'ZGenerationSetParams',
    response: { 200: 'ZGenerationSetArchiveLink' },
    errors: ['generations.not_found'],
  }),
  archive: defineRoute({
    method: 'GET',
    path: '/api/generations/sets/archive/',
    auth: 'none',
    tags: ['generations'],
    summary: 'The finished pictures of a run as a ZIP, by the signed key of an archive link',
    query: 'ZGenerationSetArchiveQuery',
    replyKind: 'binary',
    errors: ['common.not_found'],
  }),
};

/** The console's photo packs (admins): every pack, retired ones too; creating and changing one is audited. */
export const adminPhotoPacksRoutes = {
  photoPacks: defineRoute({
    method: 'GET',
    path: '/api/admin/photo_packs/',
    auth: 'required',
    staff: 'admin',
    tags: ['admin'],
    summary:
      'Every photo pack with its texts in six languages, prompts, price, order, cover and whether it is retired',
    response: { 200: 'ZStaffPhotoPackList' },
  }),
  createPhotoPack: defineRoute({
    method: 'POST',
    path: '/api/admin/photo_packs/',
    auth: 'required',
    staff: 'admin',
    tags: ['admin'],
    summary: 'Add a photo pack (its cover from one of my uploads); audited',
    body: 'ZStaffPhotoPackBody',
    response: { 201: 'ZStaffPhotoPack' },
  }),
  changePhotoPack: defineRoute({
    method: 'PUT',
    path: '/api/admin/photo_packs/:uuid/',
    auth: 'required',
    staff: 'admin',
    tags: ['admin'],
    summary: 'Change, reorder, reprice, retire or bring back a photo pack; audited',
    params: 'ZPhotoPackParams',
    body: 'ZStaffPhotoPackBody',
    response: { 200: 'ZStaffPhotoPack' },
    errors: ['common.not_found'],
  }),
};
