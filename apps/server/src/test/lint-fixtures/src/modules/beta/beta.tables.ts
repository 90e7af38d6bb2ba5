// Fine: a tables file imports another module's tables file for a foreign key.
import { alphaTable } from '../alpha/alpha.tables.js';

export const betaTable = { name: 'beta', references: alphaTable.name };
