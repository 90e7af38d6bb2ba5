// Bad: the face offers the repository itself (the row type is fine).
export { type GammaRow, gammaRepository } from './gamma.repository.js';
