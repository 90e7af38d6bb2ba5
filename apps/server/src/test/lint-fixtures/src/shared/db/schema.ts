// Fine: the schema index re-exports the modules' tables files.
export * from '../../modules/alpha/alpha.tables.js';
export * from '../../modules/beta/beta.tables.js';
