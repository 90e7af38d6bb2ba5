import type { z } from 'zod';
import type { ZDeleteAccountBody } from '@mirra/contracts';
import { fieldError } from '../../shared/errors.js';
import { addJob } from '../../shared/jobs.js';
import { revokeUserSessions, verifyPassword } from '../auth/index.js';
import { accountDeletionRepository } from './account-deletion.repository.js';
import { movedPostFiles, ownerStoragePrefixes } from './account-deletion.models.js';
import { purgeDeletedAccountFilesJob } from './users.jobs.definitions.js';
import type { UsersDeps } from './users.deps.js';
import type { UserRow } from './users.repository.js';

/**
 * Deletes the signed-in person's account. Personal data, content and sessions go in one
 * transaction; the files follow in a job added in it, so they are removed even if this process
 * dies right after the answer. A second request finds nothing left to delete and answers the same.
 */
export async function deleteAccount(
  deps: Pick<UsersDeps, 'db' | 'now' | 'sessionCache'>,
  user: UserRow,
  body: z.output<typeof ZDeleteAccountBody>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const account = await accountDeletionRepository.lockLiveAccount(tx, user.id);
    if (!account) return;
    if (account.passwordHash && !(await verifyPassword(account.passwordHash, body.current_password ?? ''))) {
      throw fieldError('users.current_password_invalid', { current_password: ['Invalid password.'] });
    }
    const at = deps.now();
    await accountDeletionRepository.removeContent(tx, user.id, body.posts);
    await accountDeletionRepository.anonymise(tx, user.id, at);
    await revokeUserSessions(tx, user.id, 'account_deleted', at);
    await addJob(tx, purgeDeletedAccountFilesJob, { userId: user.id });
  });
  deps.sessionCache.forgetUser(user.id);
}

/**
 * Removes a deleted account's files. Kept (anonymised) posts first get their own copies under
 * `posts/<post uuid>/`, so nothing of theirs stays under the person's prefixes; then every prefix
 * of the person goes. Safe to run again after a crash at any step: a post already moved no longer
 * points into the person's prefixes, and deleting a prefix twice is a no-op.
 */
export async function purgeDeletedAccountFiles(
  deps: Pick<UsersDeps, 'db' | 'storage'>,
  userId: number,
): Promise<void> {
  const posts = await deps.db.transaction((tx) =>
    accountDeletionRepository.postsUnderOwnerPrefix(tx, userId),
  );
  for (const post of posts) {
    const moved = movedPostFiles(userId, post.postUuid, post.image, post.result);
    for (const { from, to } of moved.copies) {
      const file = await deps.storage.get(from);
      if (file) await deps.storage.put(to, file.data, file.contentType);
    }
    await deps.db.transaction((tx) =>
      accountDeletionRepository.moveStoredPost(tx, post, moved.image, moved.result),
    );
  }
  for (const prefix of ownerStoragePrefixes(userId)) await deps.storage.deletePrefix(prefix);
}
