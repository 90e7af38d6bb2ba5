// Bad: shared/ imports the composition root.
import { compositionRoot } from '../app/composition.js';

export const sharedSeesApp = compositionRoot;
