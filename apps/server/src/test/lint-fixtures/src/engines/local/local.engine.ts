// Fine: an engine imports shared plumbing, the engine interface and a package.
import { pixels } from '../../../packages/pixels/src/index.js';
import { plumbing } from '../../shared/plumbing.js';
import { engineName } from '../engine.types.js';

export const localEngine = [pixels, plumbing, engineName].join();
