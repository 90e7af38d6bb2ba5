import { useState } from 'react';

let issued = 0;

/**
 * An id unique in the whole document for as long as the component lives (labels' `for`,
 * `aria-labelledby`). Not `useId`: under Preact's React layer it derives ids from the position in
 * the tree, and two fields under different lazy (Suspense) boundaries can get the same one, so one
 * field's label then names another (the sign-up form's "Email" labelled its first-name field).
 */
export function useUniqueId(prefix = 'f'): string {
  const [id] = useState(() => `${prefix}${(issued += 1).toString(36)}`);
  return id;
}
