import { adminRoutes } from '@mirra/contracts';
import type { AdminDeps } from './admin.deps.js';
import { registerAdminPhotoPackRoutes } from './admin-photo-packs.routes.js';
import { registerAdminPricingRoutes } from './admin-pricing.routes.js';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import {
  approvePayout,
  auditLog,
  banUser,
  changeCredits,
  dashboard,
  deleteModel,
  failedGenerations,
  refundGeneration,
  pendingPayouts,
  refundOrder,
  rejectPayout,
  removePost,
  reportQueue,
  restorePost,
  retryGeneration,
  searchPayments,
  searchUsers,
  staffMe,
  unbanUser,
  userDetail,
  userMoney,
} from './admin.usecases.js';

/**
 * The staff console. Each declaration names its staff level; the composition root's guard has
 * answered 404 to anyone below it before a handler runs, so `requireAuth` here is the staff member.
 */
export function registerAdminRoutes(app: ZodApp, deps: AdminDeps): void {
  const r = adminRoutes;
  serve(app, r.me, async (request) => staffMe(requireAuth(request).user));
  serve(app, r.dashboard, async () => dashboard(deps));
  serve(app, r.reports, async () => ({ results: await reportQueue(deps) }));
  serve(app, r.restorePost, async (request) => {
    await restorePost(deps, requireAuth(request).user, request.params.uuid, request.body.reason);
    return null;
  });
  serve(app, r.removePost, async (request) => {
    await removePost(deps, requireAuth(request).user, request.params.uuid, request.body.reason, {
      ban: false,
    });
    return null;
  });
  serve(app, r.removePostAndBan, async (request) => {
    await removePost(deps, requireAuth(request).user, request.params.uuid, request.body.reason, {
      ban: true,
    });
    return null;
  });
  serve(app, r.searchUsers, async (request) => ({ results: await searchUsers(deps, request.query.q) }));
  serve(app, r.user, async (request) => userDetail(deps, request.params.uuid));
  serve(app, r.banUser, async (request) =>
    banUser(deps, requireAuth(request).user, request.params.uuid, request.body.reason),
  );
  serve(app, r.unbanUser, async (request) =>
    unbanUser(deps, requireAuth(request).user, request.params.uuid, request.body.reason),
  );
  serve(app, r.changeCredits, async (request) =>
    changeCredits(deps, requireAuth(request).user, request.params.uuid, request.body),
  );
  serve(app, r.deleteModel, async (request) => {
    await deleteModel(deps, requireAuth(request).user, request.params.uuid, request.body.reason);
    return null;
  });
  serve(app, r.failedGenerations, async () => failedGenerations(deps));
  serve(app, r.retryGeneration, async (request) =>
    retryGeneration(deps, requireAuth(request).user, request.params.uuid, request.body),
  );
  serve(app, r.refundGeneration, async (request) =>
    refundGeneration(deps, requireAuth(request).user, request.params.uuid, request.body.reason),
  );
  serve(app, r.userMoney, async (request) => userMoney(deps, request.params.uuid));
  serve(app, r.searchPayments, async (request) => searchPayments(deps, request.query));
  serve(app, r.refundOrder, async (request) =>
    refundOrder(deps, requireAuth(request).user, request.params.uuid, request.body.reason),
  );
  serve(app, r.payouts, async () => ({ results: await pendingPayouts(deps) }));
  serve(app, r.approvePayout, async (request) =>
    approvePayout(deps, requireAuth(request).user, request.params.uuid, request.body),
  );
  serve(app, r.rejectPayout, async (request) =>
    rejectPayout(deps, requireAuth(request).user, request.params.uuid, request.body.reason),
  );
  serve(app, r.audit, async (request) => auditLog(deps, request.query));
  registerAdminPricingRoutes(app, deps);
  registerAdminPhotoPackRoutes(app, deps);
}
