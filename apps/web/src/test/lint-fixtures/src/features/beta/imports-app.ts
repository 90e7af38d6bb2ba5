// Bad: a feature imports the composition root.
import { root } from '../../app/root';

export const upward = root;
