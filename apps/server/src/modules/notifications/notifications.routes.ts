import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { NotificationsDeps } from './notifications.deps.js';
import {
  countUnreadNotifications,
  listNotifications,
  getNotificationPreferences,
  markNotificationsRead,
  updateNotificationPreferences,
} from './notifications.usecases.js';

const r = routes.notifications;

export function registerNotificationsRoutes(app: ZodApp, deps: NotificationsDeps): void {
  serve(app, r.list, async (request) =>
    listNotifications(deps, requireAuth(request).user.id, request.query.cursor, request.query.limit ?? 20),
  );
  serve(app, r.unread, async (request) => countUnreadNotifications(deps, requireAuth(request).user.id));
  serve(app, r.markRead, async (request) =>
    markNotificationsRead(deps, requireAuth(request).user.id, request.body.ids),
  );
  serve(app, r.preferences, async (request) => getNotificationPreferences(deps, requireAuth(request).user));
  serve(app, r.updatePreferences, async (request) =>
    updateNotificationPreferences(deps, requireAuth(request).user, request.body),
  );
}
