import type { TGenerationMode } from '@mirra/contracts';
import type { Db, DbOrTx } from '../../shared/db/client.js';
import type { GenerationRow } from './generations.repository.js';

/** The post a new generation starts from, and whether it repeats or remixes it. */
export interface PostSource {
  postId: number;
  postUuid: string;
  /** Who published it: a face swap onto someone else's post takes only a verified face. */
  authorId: number;
  kind: 'repeat' | 'remix';
}

export interface GenerationFromPostRequest {
  post_uuid?: string | null;
  mode: TGenerationMode;
  prompt: string;
  guidance: number;
  style?: string | null;
  seed?: number | null;
  duration?: number | null;
}

/**
 * A generation may name the post it repeats or remixes (`post_uuid`). The module that owns posts
 * provides these steps and the composition root hands them in, so generations never imports
 * posts: creating a generation resolves the source and records the use in its transaction;
 * completing it settles the use exactly once inside the completion's transaction.
 */
export interface GenerationSources {
  resolve(
    deps: { db: Db },
    userId: number,
    request: GenerationFromPostRequest,
    options?: { lenient?: boolean },
  ): Promise<PostSource | null>;
  record(tx: DbOrTx, generationId: number, source: PostSource): Promise<void>;
  settle(tx: DbOrTx, generation: GenerationRow, now: Date): Promise<void>;
}
