// Fine: the composition root uses the engines through their index.
import { engineName } from '../engines/index.js';

export const compositionRoot = `app with ${engineName}`;
