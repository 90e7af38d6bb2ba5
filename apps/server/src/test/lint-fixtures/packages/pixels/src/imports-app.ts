// Bad: a package imports an app's source.
import { plumbing } from '../../../src/shared/plumbing.js';

export const packageSeesApp = plumbing;
