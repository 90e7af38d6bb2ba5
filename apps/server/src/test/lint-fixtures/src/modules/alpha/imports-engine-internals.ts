// Bad: a module reaches past engines/index.ts into an engine's own files.
import { engineName } from '../../engines/engine.types.js';

export const alphaSeesEngineInternals = engineName;
