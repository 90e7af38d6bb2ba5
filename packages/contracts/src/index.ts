export * from './schemas.js';
export * from './routes/index.js';
