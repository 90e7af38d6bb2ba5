/**
 * The public face of the notifications module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { NotificationsDeps } from './notifications.deps.js';
export { notificationsJobDefinitions } from './notifications.jobs.definitions.js';
export { notificationsJobHandlers } from './notifications.jobs.js';
export { registerNotificationsRoutes } from './notifications.routes.js';
export { notifyUser } from './notifications.usecases.js';
