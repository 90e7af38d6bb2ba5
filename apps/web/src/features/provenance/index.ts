/** Provenance on screen: the visible AI mark on Mirra's pictures, and the public verify page. */
export { AiMark, AiMarked } from './ai-mark';
export { VerifyPage } from './verify-page';
