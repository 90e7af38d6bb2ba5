import type { DbOrTx } from '../../shared/db/client.js';

/**
 * An author's count of published posts, kept by the module that owns profile counters. Posts
 * changes it in the transaction that publishes or withdraws a post; the composition root hands it
 * in, so posts never imports that module.
 */
export interface PublishedPostCounter {
  add(tx: DbOrTx, authorId: number, delta: 1 | -1): Promise<void>;
}
