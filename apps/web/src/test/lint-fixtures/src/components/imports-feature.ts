// Bad: a shared component imports a feature, even through its index.ts.
import { alphaName } from '../features/alpha';

export const labelled = alphaName;
