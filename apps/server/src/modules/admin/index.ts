/**
 * The public face of the staff console: its routes, the command-line grant and its deps slice.
 * It acts on other modules only through their index use cases, and writes every change to the
 * append-only audit log in the change's own transaction.
 */
export type { AdminDeps } from './admin.deps.js';
export { registerAdminAccountRequestRoutes } from './admin-account-requests.routes.js';
export { registerAdminHealthRoute } from './admin-health.routes.js';
export { registerAdminRoutes } from './admin.routes.js';
export { grantStaffRole } from './staff-roles.usecases.js';
