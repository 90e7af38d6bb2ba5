import type { TaskList } from 'graphile-worker';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.js';
import { addJob, defineJob, toTask } from '../jobs.js';
import type { Storage } from './storage.js';

/** Stored files to remove: single keys and whole prefixes (`models/<user>/<model>/`). */
export interface StoredFiles {
  keys?: string[];
  prefixes?: string[];
}

/**
 * Files whose rows are gone. Added in the transaction that deleted the rows, so a store that fails
 * (or a process that dies) after the commit cannot leave objects behind for ever: the job is
 * retried with backoff until every key and prefix is gone. Deleting what is already gone is a
 * no-op, so a run after an immediate deletion (or a retry after a partial one) is harmless.
 */
export const deleteStoredFilesJob = defineJob({
  name: 'storage:delete_files',
  payload: z.object({
    keys: z.array(z.string().min(1)).default([]),
    prefixes: z.array(z.string().min(1)).default([]),
  }),
  maxAttempts: 25,
});

/** Adds the deletion job in the caller's transaction (the one that deletes the rows). */
export async function deleteStoredFilesLater(tx: DbOrTx, files: StoredFiles): Promise<void> {
  await addJob(tx, deleteStoredFilesJob, { keys: files.keys ?? [], prefixes: files.prefixes ?? [] });
}

/** Removes the files now; throws when the store fails (the job then tries again). */
export async function deleteStoredFiles(storage: Storage, files: StoredFiles): Promise<void> {
  for (const key of files.keys ?? []) await storage.delete(key);
  for (const prefix of files.prefixes ?? []) await storage.deletePrefix(prefix);
}

/**
 * After the commit: removes the files at once, so signed links to them stop working now, not
 * when the worker gets to the job. A failure here is left to the job added with the deletion.
 */
export async function deleteStoredFilesNow(storage: Storage, files: StoredFiles): Promise<void> {
  await deleteStoredFiles(storage, files).catch(() => undefined);
}

export function storageJobHandlers(deps: { storage: Storage }): TaskList {
  return {
    [deleteStoredFilesJob.name]: toTask(deleteStoredFilesJob, (files) =>
      deleteStoredFiles(deps.storage, files),
    ),
  };
}
