import type { DbOrTx } from '../../shared/db/client.js';
import { deleteStoredFilesLater } from '../../shared/storage/file-deletion.js';
import { postStoragePrefix } from '../../shared/storage/storage-keys.js';
import type { ModelPosts } from '../models/index.js';
import type { PostsDeps } from './posts.deps.js';
import { postsRepository } from './posts.repository.js';

/**
 * Posts made with a digital model whose person withdrew consent: every one of them (published,
 * hidden or a draft) is deleted in the withdrawal's transaction, with its saves, views and
 * reports, so it leaves every feed and cannot be published again; its author's published count
 * follows. The results stay in their author's private library, and publishing them again is
 * refused (`posts.consent_withdrawn`).
 */
export function createModelPosts(deps: Pick<PostsDeps, 'publishedPostCounter'>): ModelPosts {
  return {
    async removePostsMadeWith(tx: DbOrTx, modelUuid: string): Promise<number> {
      const made = await postsRepository.lockMadeWithModel(tx, modelUuid);
      for (const post of made) {
        if (post.status === 'published') await deps.publishedPostCounter.add(tx, post.userId, -1);
        await postsRepository.deletePost(tx, post.id);
        // A kept post of a deleted account has its own copies of its files under `posts/<uuid>/`.
        await deleteStoredFilesLater(tx, { prefixes: [postStoragePrefix(post.uuid)] });
      }
      return made.length;
    },
  };
}
