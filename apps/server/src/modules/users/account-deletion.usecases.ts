import type { z } from 'zod';
import type { ZDeleteAccountBody } from '@mirra/contracts';
import { fieldError } from '../../shared/errors.js';
import { addJob } from '../../shared/jobs.js';
import { revokeUserSessions } from '../auth/index.js';
import { accountDeletionRepository } from './account-deletion.repository.js';
import { movedPostFiles, ownerStoragePrefixes } from './account-deletion.models.js';
import { purgeDeletedAccountFilesJob } from './users.jobs.definitions.js';
import type { UsersDeps } from './users.deps.js';
import type { UserRow } from './users.repository.js';
import type { Tx } from '../../shared/db/client.js';
import { checkCurrentPassword } from './users.usecases.js';

/**
 * Deletes the signed-in person's account. Personal data, content and sessions go in one
 * transaction; the files follow in a job added in it, so they are removed even if this process
 * dies right after the answer. A second request finds nothing left to delete and answers the same.
 */
export async function deleteAccount(
  deps: Pick<UsersDeps, 'db' | 'now' | 'sessionCache' | 'config' | 'rateLimiter'>,
  user: UserRow,
  body: z.output<typeof ZDeleteAccountBody>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const account = await accountDeletionRepository.lockLiveAccount(tx, user.id);
    if (!account) return;
    if (
      account.passwordHash &&
      !(await checkCurrentPassword(
        deps,
        { id: user.id, passwordHash: account.passwordHash },
        body.current_password ?? '',
      ))
    ) {
      throw fieldError('users.current_password_invalid', { current_password: ['Invalid password.'] });
    }
    await removeAccount(tx, user.id, body.posts, deps.now());
  });
  deps.sessionCache.forgetUser(user.id);
}

/**
 * Deletes an account in the caller's transaction, as its owner's request does, for staff acting
 * on the person's request (no password: staff record why in the audit log in the same
 * transaction). False when the account is already deleted. The caller
 * forgets the person's cached sessions once the transaction has committed.
 */
export async function deleteAccountInTransaction(
  tx: Tx,
  userId: number,
  posts: z.output<typeof ZDeleteAccountBody>['posts'],
  at: Date,
): Promise<boolean> {
  const account = await accountDeletionRepository.lockLiveAccount(tx, userId);
  if (!account) return false;
  await removeAccount(tx, userId, posts, at);
  return true;
}

async function removeAccount(
  tx: Tx,
  userId: number,
  posts: z.output<typeof ZDeleteAccountBody>['posts'],
  at: Date,
): Promise<void> {
  await accountDeletionRepository.removeContent(tx, userId, posts);
  await accountDeletionRepository.anonymise(tx, userId, at);
  await revokeUserSessions(tx, userId, 'account_deleted', at);
  await addJob(tx, purgeDeletedAccountFilesJob, { userId });
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
