import { useState, type ReactNode } from 'react';
import { useOutlet } from 'react-router';
import { useSession } from '../../lib/session';
import { useRouteMeta } from './use-route-meta';

/**
 * Renders the current page; kept-alive pages (`/upload/`, `/profile/`) stay mounted but hidden
 * when you leave, so they come back with their state. The cache belongs to one signed-in user.
 * A hidden page stays in the document under `display: none` (its effects keep running: the app
 * renders with Preact, which has no `<Activity>`); the shown one's wrapper is `display: contents`,
 * so it lays out as if unwrapped.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const meta = useRouteMeta();
  const userId = useSession((s) => s.user?.id ?? null);
  const [cache, setCache] = useState<{ owner: number | null; pages: Record<string, ReactNode> }>({
    owner: userId,
    pages: {},
  });

  if (cache.owner !== userId) {
    setCache({ owner: userId, pages: {} });
  } else if (meta.keepAlive && !(meta.path in cache.pages)) {
    setCache({ owner: userId, pages: { ...cache.pages, [meta.path]: outlet } });
  }

  return (
    <>
      {Object.entries(cache.pages).map(([path, element]) => (
        <div
          key={path}
          data-kept-page={path}
          style={{ display: meta.keepAlive && meta.path === path ? 'contents' : 'none' }}
        >
          {element}
        </div>
      ))}
      {!meta.keepAlive && outlet}
    </>
  );
}
