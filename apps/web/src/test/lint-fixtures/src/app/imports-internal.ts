// Bad: app/ reaches past a feature's index.ts.
import { alphaSecret } from '../features/alpha/alpha-internal';

export const leaked = alphaSecret;
