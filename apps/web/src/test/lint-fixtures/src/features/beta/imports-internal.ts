// Bad: another feature's internals, past its index.ts.
import { alphaSecret } from '../alpha/alpha-internal';

export const stolen = alphaSecret;
