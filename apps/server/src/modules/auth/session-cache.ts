import type { NotificationHub } from '../../shared/db/notifications.js';
import type { UserRow } from '../users/index.js';

/** Channel fed by database triggers on `users` and `token_families` (see the migration). */
export const AUTH_CHANGES_CHANNEL = 'mirra_auth_changes';

/**
 * Remembers, per process, which user an access token's session resolves to, so an authenticated
 * request usually needs no database round trip. Correctness comes from PostgreSQL: triggers NOTIFY
 * every change to a user or a session (logout, revocation, profile edit, deactivation), from any
 * process, and the entry is dropped. While the LISTEN connection is down nothing is cached.
 */
export function createSessionCache(
  hub: NotificationHub | null,
  options: { ttlMs: number; maxEntries: number },
) {
  const entries = new Map<string, { user: UserRow; familyId: string; expiresAt: number }>();
  // Bumped on every notification: a lookup that started before a change must not cache what it read.
  let generation = 0;

  hub?.subscribe(
    AUTH_CHANGES_CHANNEL,
    (payload) => {
      generation++;
      const [kind, id] = payload.split(':');
      for (const [key, entry] of entries) {
        if ((kind === 'u' && String(entry.user.id) === id) || (kind === 'f' && entry.familyId === id)) {
          entries.delete(key);
        }
      }
    },
    () => {
      generation++;
      entries.clear();
    },
  );

  return {
    /** Resolves through the cache, calling `load` on a miss. */
    async resolve(
      userId: number,
      familyId: string,
      load: () => Promise<UserRow | undefined>,
      now = Date.now(),
    ): Promise<UserRow | undefined> {
      const key = `${userId}:${familyId}`;
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now && hub?.isListening()) return hit.user;
      if (hit) entries.delete(key);
      const startedAt = generation;
      const user = await load();
      if (user && hub?.isListening() && generation === startedAt) {
        if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { user, familyId, expiresAt: now + options.ttlMs });
      }
      return user;
    },
    /**
     * Drops a user's entries now, for changes this process makes (logout, password change,
     * profile edit) so its own next request sees them; other processes hear of it by NOTIFY.
     */
    forgetUser(userId: number): void {
      generation++;
      for (const [key, entry] of entries) if (entry.user.id === userId) entries.delete(key);
    },
    size: () => entries.size,
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
