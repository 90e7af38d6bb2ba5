export { alphaName } from './alpha-internal';
export { alphaApi } from './api/alpha.api';
