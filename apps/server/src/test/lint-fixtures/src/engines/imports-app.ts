// Bad: an engine imports the composition root.
import { compositionRoot } from '../app/composition.js';

export const engineSeesApp = compositionRoot;
