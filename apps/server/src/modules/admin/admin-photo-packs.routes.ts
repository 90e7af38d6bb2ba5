import { randomUUID } from 'node:crypto';
import { adminRoutes } from '@mirra/contracts';
import type { AdminDeps } from './admin.deps.js';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import { savePhotoPack, staffPhotoPacks } from '../photo-packs/index.js';
import { auditOf } from './admin.usecases.js';

/** What the audit log calls a photo pack. */
const PHOTO_PACK_AUDIT_KIND = 'photo pack';

/** Photo packs (admins): list, add and change, each change audited in its own transaction. */
export function registerAdminPhotoPackRoutes(app: ZodApp, deps: AdminDeps): void {
  serve(app, adminRoutes.photoPacks, async () => staffPhotoPacks(deps));
  serve(app, adminRoutes.createPhotoPack, async (request) => {
    const staff = requireAuth(request).user;
    const { reason, ...fields } = request.body;
    const uuid = randomUUID();
    return savePhotoPack(
      deps,
      staff.id,
      { uuid, create: true },
      fields,
      auditOf(staff, 'photo_pack.create', { kind: PHOTO_PACK_AUDIT_KIND, id: uuid }, reason),
    );
  });
  serve(app, adminRoutes.changePhotoPack, async (request) => {
    const staff = requireAuth(request).user;
    const { reason, ...fields } = request.body;
    const { uuid } = request.params;
    return savePhotoPack(
      deps,
      staff.id,
      { uuid, create: false },
      fields,
      auditOf(staff, 'photo_pack.change', { kind: PHOTO_PACK_AUDIT_KIND, id: uuid }, reason),
    );
  });
}
