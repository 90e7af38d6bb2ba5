import { adminRoutes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { AdminDeps } from './admin.deps.js';
import { deleteUserOnRequest, exportUserOnRequest } from './admin-account-requests.usecases.js';

/** A person's requests staff carry out for them: their data, and deleting their account. */
export function registerAdminAccountRequestRoutes(app: ZodApp, deps: AdminDeps): void {
  serve(app, adminRoutes.exportUser, async (request, reply) => {
    const { fileName, stream } = await exportUserOnRequest(
      deps,
      requireAuth(request).user,
      request.params.uuid,
      request.body.reason,
    );
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
  serve(app, adminRoutes.deleteUser, async (request) =>
    deleteUserOnRequest(deps, requireAuth(request).user, request.params.uuid, request.body),
  );
}
