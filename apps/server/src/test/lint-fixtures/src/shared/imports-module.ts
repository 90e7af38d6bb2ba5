// Bad: shared/ imports a module, even through its index.
import { alphaRule } from '../modules/alpha/index.js';

export const sharedSeesModule = alphaRule;
