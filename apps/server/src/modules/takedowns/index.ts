/**
 * The public face of the takedowns module: requests to remove a post from anyone, signed in or
 * not; urgent ones (intimate or non-consensual pictures) hidden at once with a 48-hour deadline;
 * staff removal that deletes every copy and blocks the picture, or rejection that restores it.
 */
export type { TakedownsDeps } from './takedowns.deps.js';
export { deadlineState } from './takedowns.models.js';
export { registerTakedownsRoutes } from './takedowns.routes.js';
export { rejectReportsOfPost, removeReportedPostForGood } from './takedowns.usecases.js';
