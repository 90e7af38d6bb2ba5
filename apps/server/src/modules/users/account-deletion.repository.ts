import { sql } from 'drizzle-orm';
import type { AccountPostChoice } from '@mirra/contracts';
import type { Tx } from '../../shared/db/client.js';

/**
 * Deleting an account is one transaction over every table that holds the person: a crash leaves
 * either the whole account or none of its personal data. The money tables (credit and wallet
 * ledgers, payment orders, partner commissions and pay-outs) keep their rows, pointing at the
 * emptied `users` row, because bookkeeping law requires them and they hold no personal data.
 */
export const accountDeletionRepository = {
  /** Locks the account; null once it was deleted (a repeated request changes nothing). */
  async lockLiveAccount(tx: Tx, userId: number): Promise<{ passwordHash: string | null } | null> {
    const rows = await tx.execute<{ password_hash: string | null }>(
      sql`SELECT password_hash FROM users WHERE id = ${userId} AND deleted_at IS NULL FOR UPDATE`,
    );
    const row = rows.rows[0];
    return row ? { passwordHash: row.password_hash } : null;
  },

  async removeContent(tx: Tx, userId: number, posts: AccountPostChoice): Promise<void> {
    // Published posts stay only when anonymised; drafts and hidden posts always go.
    await tx.execute(
      posts === 'delete'
        ? sql`DELETE FROM posts WHERE user_id = ${userId}`
        : sql`DELETE FROM posts WHERE user_id = ${userId} AND status <> 'published'`,
    );
    // Generations go with their results, except those behind a kept post.
    await tx.execute(sql`
      DELETE FROM generations g WHERE g.user_id = ${userId}
        AND NOT EXISTS (SELECT 1 FROM posts p WHERE p.generation_id = g.id)`);
    await tx.execute(sql`DELETE FROM models WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM uploads WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM notifications WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM notification_preferences WHERE user_id = ${userId}`);
    // Other people's notices about this person (a new subscriber, a royalty, a new partner) keep
    // what happened but not the name.
    await tx.execute(sql`
      UPDATE notifications SET data = data - 'user_name'
      WHERE data ? 'user_name'
        AND (data->>'user_uuid' = (SELECT uuid::text FROM users WHERE id = ${userId})
          OR dedupe_key = ${`partner_joined:${userId}`})`);
    await tx.execute(sql`DELETE FROM post_saves WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM post_views WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM saved_query_strings WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM payout_requisites WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM partner_profiles WHERE user_id = ${userId}`);
    await tx.execute(
      sql`DELETE FROM telegram_auth_keys WHERE user_id = ${userId} OR requested_by_user_id = ${userId}`,
    );
    await this.removeFollows(tx, userId);
    // No renewal may charge a saved card of a person who left.
    await tx.execute(sql`
      UPDATE premium_subscriptions SET auto_renew = false, saved_method_id = NULL,
        cancelled_at = coalesce(cancelled_at, now()), updated_at = now()
      WHERE user_id = ${userId}`);
  },

  /** Follows both ways go, and the other side's counters with them. */
  async removeFollows(tx: Tx, userId: number): Promise<void> {
    await tx.execute(sql`
      WITH gone AS (DELETE FROM subscriptions WHERE subscriber_id = ${userId} RETURNING author_id)
      UPDATE user_counters c SET subscribers_count = c.subscribers_count - n.count
      FROM (SELECT author_id, count(*)::int AS count FROM gone GROUP BY author_id) n
      WHERE c.user_id = n.author_id`);
    await tx.execute(sql`
      WITH gone AS (DELETE FROM subscriptions WHERE author_id = ${userId} RETURNING subscriber_id)
      UPDATE user_counters c SET subscriptions_count = c.subscriptions_count - n.count
      FROM (SELECT subscriber_id, count(*)::int AS count FROM gone GROUP BY subscriber_id) n
      WHERE c.user_id = n.subscriber_id`);
    await tx.execute(sql`
      UPDATE user_counters SET subscribers_count = 0, subscriptions_count = 0,
        posts_count = (SELECT count(*)::int FROM posts WHERE user_id = ${userId} AND status = 'published')
      WHERE user_id = ${userId}`);
  },

  /** Every field that names, reaches or signs in the person is emptied. */
  async anonymise(tx: Tx, userId: number, at: Date): Promise<void> {
    await tx.execute(sql`
      UPDATE users SET email = NULL, password_hash = NULL, is_active = false, first_name = '',
        last_name = '', username = '', phone = '', instagram = '', telegram_id = NULL,
        telegram_username = NULL, telegram_photo_url = NULL, telegram_allows_write = false,
        google_sub = NULL, staff_role = NULL, last_login = NULL, deleted_at = ${at},
        updated_at = ${at}
      WHERE id = ${userId}`);
  },

  /** The kept (anonymised) posts whose files still sit under the person's own prefix. */
  async postsUnderOwnerPrefix(
    tx: Tx,
    userId: number,
  ): Promise<
    Array<{ postId: number; postUuid: string; generationId: number; image: unknown; result: unknown }>
  > {
    const rows = await tx.execute<{
      id: number;
      uuid: string;
      generation_id: number;
      image: unknown;
      result: unknown;
    }>(sql`
      SELECT p.id, p.uuid, p.generation_id, p.image, g.result FROM posts p
      JOIN generations g ON g.id = p.generation_id
      WHERE p.user_id = ${userId} AND p.image::text LIKE ${`%"results/${userId}/%`}`);
    return rows.rows.map((row) => ({
      postId: Number(row.id),
      postUuid: row.uuid,
      generationId: Number(row.generation_id),
      image: row.image,
      result: row.result,
    }));
  },

  async moveStoredPost(
    tx: Tx,
    post: { postId: number; generationId: number },
    image: unknown,
    result: unknown,
  ): Promise<void> {
    await tx.execute(sql`UPDATE posts SET image = ${JSON.stringify(image)}::jsonb WHERE id = ${post.postId}`);
    await tx.execute(
      sql`UPDATE generations SET result = ${JSON.stringify(result)}::jsonb WHERE id = ${post.generationId}`,
    );
  },
};
