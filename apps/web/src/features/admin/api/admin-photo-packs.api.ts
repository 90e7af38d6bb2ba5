import { adminRoutes, routes, type TStaffPhotoPack } from '@mirra/contracts';
import { api } from '../../../lib/api-client';
import { uploadForm } from '../../../lib/api-transfer';

export const adminPhotoPackKeys = { list: () => ['admin', 'photo-packs'] as const };

export type PhotoPackFields = Omit<
  TStaffPhotoPack,
  'uuid' | 'emoji_art' | 'cover_url' | 'effective_price' | 'updated_at'
>;

/** The console's photo packs: list, add and change with a reason (audited); a cover is first an upload. */
export const adminPhotoPacksApi = {
  list: () => api(adminRoutes.photoPacks),
  create: (fields: PhotoPackFields & { cover_upload: string | null; reason: string }) =>
    api(adminRoutes.createPhotoPack, { body: fields }),
  change: (uuid: string, fields: PhotoPackFields & { cover_upload: string | null; reason: string }) =>
    api(adminRoutes.changePhotoPack, { params: { uuid }, body: fields }),
  uploadCover: (file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return uploadForm(routes.uploads.create, { body: form }, {});
  },
};
