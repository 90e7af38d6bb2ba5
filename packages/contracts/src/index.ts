export * from './errors.js';
export * from './fields.js';
export * from './users.js';
export * from './auth.js';
export * from './telegram.js';
export * from './limits.js';
export * from './generations.js';
export * from './credits.js';
