// Fine: its own tables, and alpha's, which the table reads allow beta to join.
import { alphaTable } from '../alpha/alpha.tables.js';
import { betaTable } from './beta.tables.js';

export const betaRepository = { join: [betaTable.name, alphaTable.name] };
