import type { TGenerationMode } from '@mirra/contracts';
import type { PostsDeps } from './posts.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { applyCreditChange } from '../credits/index.js';
import type {
  GenerationFromPostRequest,
  GenerationRow,
  GenerationSources,
  PostSource,
} from '../generations/index.js';
import { notifyUser } from '../notifications/index.js';
import { findUserById } from '../users/index.js';
import { postNotFound } from './posts.errors.js';
import { canGenerateFromPost, classifyPostUse, displayName, settleRoyalty } from './posts.models.js';
import { postsRepository } from './posts.repository.js';

/**
 * How generations and posts meet: a generation may name the post it repeats or remixes
 * (`post_uuid`). Creating it records the use; completing it settles the use exactly once (the
 * author's royalty and the post's repeat/remix counter), inside the completion's transaction.
 * Generations calls these through `postGenerationSources`, handed in at start.
 */

/**
 * The post a new generation starts from: published, or the caller's own. Anything else is
 * answered as missing, or, for `lenient` callers (repeating one's own generation after its post
 * was unpublished), dropped so the repeat still runs, without a royalty.
 */
export async function resolvePostSource(
  deps: Pick<PostsDeps, 'db'>,
  userId: number,
  request: GenerationFromPostRequest,
  options: { lenient?: boolean } = {},
): Promise<PostSource | null> {
  if (!request.post_uuid) return null;
  const post = await postsRepository.findByUuid(deps.db, request.post_uuid);
  if (!post || !canGenerateFromPost({ status: post.status, authorId: post.userId }, userId)) {
    if (options.lenient) return null;
    throw postNotFound();
  }
  const kind = classifyPostUse(
    {
      mode: post.mode as TGenerationMode,
      prompt: post.prompt,
      guidance: post.guidance,
      style: post.style,
      seed: post.seed,
      durationSeconds: post.durationSeconds,
    },
    {
      mode: request.mode,
      prompt: request.prompt,
      guidance: request.guidance,
      style: request.style ?? null,
      seed: request.seed ?? undefined,
      durationSeconds: request.duration ?? null,
    },
  );
  return { postId: post.id, postUuid: post.uuid, authorId: post.userId, kind };
}

/** Records, in the generation's creating transaction, which post it came from. */
export async function recordPostUse(tx: DbOrTx, generationId: number, source: PostSource): Promise<void> {
  await postsRepository.insertGenerationUse(tx, { generationId, postId: source.postId, kind: source.kind });
}

/**
 * Called in the transaction that completes a generation: if it was made from someone else's
 * post, counts the repeat or remix and adds 20% of the credits spent to the author's carried
 * royalty; whole credits of it are paid through the ledger, with a notification, and the fraction
 * waits for the next use. The claim on the use row (taken before the carry changes), the ledger's
 * idempotency key and the notification's dedupe key each make a second call change nothing.
 * Refunded generations never complete, so they never get here. Nothing for one's own post: it
 * would be a 20% discount on one's own generations, not a royalty, and would inflate one's own
 * ranking.
 */
export async function settlePostUse(tx: DbOrTx, generation: GenerationRow, now: Date): Promise<void> {
  if (!generation.postUuid) return;
  const use = await postsRepository.claimGenerationUse(tx, generation.id, now);
  if (!use || use.authorId === generation.userId) return;
  await postsRepository.addToCounter(
    tx,
    use.postId,
    use.kind === 'repeat' ? 'repeatsCount' : 'remixesCount',
    1,
  );
  const carried = await postsRepository.lockRoyaltyCarry(tx, use.authorId);
  const royalty = settleRoyalty({ carriedHundredths: carried, spentCredits: generation.cost });
  if (royalty.carriedHundredths !== carried) {
    await postsRepository.setRoyaltyCarry(tx, use.authorId, royalty.carriedHundredths, now);
  }
  const amount = royalty.payCredits;
  if (amount <= 0) return;
  await applyCreditChange(tx, {
    userId: use.authorId,
    delta: amount,
    kind: 'royalty',
    ref: generation.uuid,
    idempotencyKey: `royalty:${generation.uuid}`,
  });
  const generator = await findUserById(tx, generation.userId);
  await notifyUser(tx, {
    userId: use.authorId,
    kind: 'royalty',
    data: {
      amount,
      post_uuid: use.postUuid,
      ...(generator ? { user_uuid: generator.uuid, user_name: displayName(generator) } : {}),
    },
    dedupeKey: `royalty:${generation.uuid}`,
  });
}

/** Posts as the sources of generations, handed to the generations module by the composition root. */
export const postGenerationSources: GenerationSources = {
  resolve: resolvePostSource,
  record: recordPostUse,
  settle: settlePostUse,
};
