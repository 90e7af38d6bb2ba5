/**
 * The public face of the users module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export {
  findActiveUserForSession,
  findUserByEmail,
  findUserByGoogleSub,
  findUserById,
  findUserByTelegramId,
  findUsersByRefs,
  searchUsersForStaff,
  lockUser,
  updateUser,
} from './user-records.usecases.js';
export type { UsersDeps } from './users.deps.js';
export { deleteAccountInTransaction } from './account-deletion.usecases.js';
export { exportAccountOf } from './account-export.usecases.js';
export { announceNewPartnerJob, usersJobDefinitions } from './users.jobs.definitions.js';
export { usersJobHandlers } from './users.jobs.js';
export type { NewUserRow, UserRow } from './users.repository.js';
export { registerUsersRoutes } from './users.routes.js';
export { referralLink, toPublicUserJson } from './users.serializers.js';
export { pickReferralCode } from './users.models.js';
export { createUser } from './users.usecases.js';
