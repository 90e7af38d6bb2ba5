// Bad: lib/ imports a feature.
import { betaName } from '../features/beta/uses-faces';

export const fromBeta = betaName;
