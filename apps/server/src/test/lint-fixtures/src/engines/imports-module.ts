// Bad: an engine imports a feature module, even through its index (it gets a port instead).
import { alphaRule } from '../modules/alpha/index.js';

export const engineSeesModule = alphaRule;
