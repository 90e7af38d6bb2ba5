export { alphaName } from './alpha-internal';
