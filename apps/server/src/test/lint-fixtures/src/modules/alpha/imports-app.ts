// Bad: a module imports the composition root.
import { compositionRoot } from '../../app/composition.js';

export const alphaSeesApp = compositionRoot;
