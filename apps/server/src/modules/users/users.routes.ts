import { pickLanguage, routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { UsersDeps } from './users.deps.js';
import {
  activateUser,
  confirmPasswordReset,
  findPublicUser,
  findPublicUsers,
  loginWithPassword,
  registerUser,
  requestPasswordReset,
  resendActivation,
  setPassword,
  updateProfile,
} from './users.usecases.js';
import { toUserJson } from './users.serializers.js';
import { deleteAccount } from './account-deletion.usecases.js';
import { createExportLink, exportAccount } from './account-export.usecases.js';
import { pickReferralCode } from './users.models.js';

const r = routes.users;

/** Accounts: djoser-style paths, trailing slashes included. */
export function registerUsersRoutes(app: ZodApp, deps: UsersDeps): void {
  serve(app, r.login, async (request) => loginWithPassword(deps, request.body, request.ip));
  serve(app, r.register, async (request) => {
    const language = pickLanguage(request.headers['accept-language']);
    return registerUser(
      deps,
      { ...request.body, referral_code: pickReferralCode(request.body.referral_code, request.cookies) },
      { ip: request.ip, language },
    );
  });
  serve(app, r.activate, async (request) => activateUser(deps, request.body));
  serve(app, r.resendActivation, async (request) => {
    await resendActivation(deps, request.body.email, request.ip);
    return null;
  });
  serve(app, r.resetPassword, async (request) => {
    await requestPasswordReset(deps, request.body.email, request.ip);
    return null;
  });
  serve(app, r.resetPasswordConfirm, async (request) => {
    await confirmPasswordReset(deps, request.body);
    return null;
  });
  serve(app, r.setPassword, async (request) => {
    const { user, familyId } = requireAuth(request);
    await setPassword(deps, user, familyId, request.body);
    return null;
  });
  serve(app, r.me, async (request) => toUserJson(requireAuth(request).user, deps.config.publicUrl));
  for (const route of [r.replaceMe, r.updateMe]) {
    serve(app, route, async (request) => updateProfile(deps, requireAuth(request).user, request.body));
  }
  serve(app, r.deleteMe, async (request) => {
    await deleteAccount(deps, requireAuth(request).user, request.body);
    return null;
  });
  serve(app, r.exportMe, async (request) => createExportLink(deps, requireAuth(request).user));
  serve(app, r.exportDownload, async (request, reply) => {
    const { fileName, stream } = await exportAccount(deps, request.query.key, {
      isDownload: request.method === 'GET',
    });
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
  serve(app, r.byId, async (request) => findPublicUser(deps, requireAuth(request).user.id, request.query.id));
  serve(app, r.byIds, async (request) =>
    findPublicUsers(deps, requireAuth(request).user.id, request.query['id[]']),
  );
}
