import { alphaTable } from './alpha.tables.js';

export const alphaRepository = { table: alphaTable.name };
