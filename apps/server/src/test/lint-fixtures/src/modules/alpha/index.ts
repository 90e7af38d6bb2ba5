export { alphaRule } from './alpha.models.js';
