// Good: a page uses its feature's exports (hooks, components), never an API.
import { alphaName } from '../../features/alpha';

export const title = alphaName;
