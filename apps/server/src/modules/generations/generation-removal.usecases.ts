import type { DbOrTx } from '../../shared/db/client.js';
import { deleteStoredFilesLater, type StoredFiles } from '../../shared/storage/file-deletion.js';
import { generationRemovalRepository } from './generation-removal.repository.js';

/**
 * Deletes a generation for good, in the caller's transaction: its row (with its post, shares and
 * kept perceptual hash) and, by a retried job added in the same transaction, every stored file of
 * it: the original, its variants, previews and posters all live under its result prefix. Returns
 * the files, for the caller to delete at once after the commit too.
 */
export async function removeGenerationForGood(tx: DbOrTx, generationId: number): Promise<StoredFiles> {
  const row = await generationRemovalRepository.delete(tx, generationId);
  if (!row) return {};
  const files = { prefixes: [`results/${row.userId}/${row.uuid}/`] };
  await deleteStoredFilesLater(tx, files);
  return files;
}
