// Bad: another module's repository, past its index.
import { alphaRepository } from '../alpha/alpha.repository.js';

export const betaReadsAlphaTable = alphaRepository.table;
