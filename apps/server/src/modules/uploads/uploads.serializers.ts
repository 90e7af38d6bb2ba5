import type { TUpload } from '@mirra/contracts';
import type { UploadsDeps } from './uploads.deps.js';
import type { UploadRow } from './uploads.repository.js';

/** An upload as the API shows it: a signed, expiring URL instead of its storage key. */
export function toUploadJson(deps: Pick<UploadsDeps, 'mediaUrls' | 'now'>, row: UploadRow): TUpload {
  return {
    uuid: row.uuid,
    url: deps.mediaUrls.url(row.storageKey, deps.now()),
    width: row.width,
    height: row.height,
    content_type: row.contentType,
    bytes: row.bytes,
  };
}
