/** Every schema, constant and rule the web app and the server share (route declarations apart). */
export * from './errors.js';
export * from './fields.js';
export * from './http.js';
export * from './users.js';
export * from './auth.js';
export * from './telegram.js';
export * from './limits.js';
export * from './generation-constants.js';
export * from './generations.js';
export * from './credits.js';
export * from './notifications.js';
export * from './model-constants.js';
export * from './models.js';
export * from './post-constants.js';
export * from './posts.js';
export * from './payments.js';
export * from './dev.js';
