// Bad: lib/ imports the composition root.
import { root } from '../app/root';

export const fromApp = root;
