// Good: the entry point is the one place that imports app/.
import { root } from './app/root';

export const main = root;
