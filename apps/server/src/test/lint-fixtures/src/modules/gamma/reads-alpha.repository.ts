// Bad: a repository joins another module's tables that the table reads do not allow.
import { alphaTable } from '../alpha/alpha.tables.js';

export const gammaReadsAlpha = alphaTable.name;
