// Good: a test may arrange state anywhere.
import { alphaSecret } from '../alpha/alpha-internal';

export const arranged = alphaSecret;
