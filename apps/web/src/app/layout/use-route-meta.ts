import { useLocation, useMatches } from 'react-router';
import type { RouteMeta } from '../route-access';
import { routeMetaFor } from '../route-table';

/** The table entry of the page on screen. */
export function useRouteMeta(): RouteMeta & { path: string } {
  const matches = useMatches();
  const location = useLocation();
  const handle = [...matches].reverse().find((match) => match.handle)?.handle as
    (RouteMeta & { path: string }) | undefined;
  return handle ?? { ...routeMetaFor(location.pathname), path: location.pathname };
}
