import { routes, type TVerifyResult } from '@mirra/contracts';
import { uploadForm } from '../../lib/api-transfer';

/** Sends a file to the public verify API (signed in or not); nothing of it is kept there. */
export function verifyFile(file: Blob, options: { signal?: AbortSignal } = {}): Promise<TVerifyResult> {
  const form = new FormData();
  form.append('file', file);
  return uploadForm(routes.verify.check, { body: form }, options);
}
