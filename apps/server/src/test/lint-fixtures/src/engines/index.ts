export { engineName } from './engine.types.js';
