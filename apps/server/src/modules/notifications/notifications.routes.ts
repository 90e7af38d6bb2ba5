import { ZCursorQuery, ZMarkReadBody, ZNotificationList, ZUnreadCount } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { NotificationsDeps } from './notifications.deps.js';
import {
  countUnreadNotifications,
  listNotifications,
  markNotificationsRead,
} from './notifications.usecases.js';

const tags = ['notifications'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { telegram: [] }];

export function registerNotificationsRoutes(app: ZodApp, deps: NotificationsDeps): void {
  app.get(
    '/api/notifications/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'My notifications, newest first, with the unread count',
        querystring: ZCursorQuery,
        response: { 200: ZNotificationList },
        security,
      },
    },
    async (request) =>
      listNotifications(deps, requireAuth(request).user.id, request.query.cursor, request.query.limit ?? 20),
  );

  app.get(
    '/api/notifications/unread/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'How many notifications I have not read',
        response: { 200: ZUnreadCount },
        security,
      },
    },
    async (request) => countUnreadNotifications(deps, requireAuth(request).user.id),
  );

  app.post(
    '/api/notifications/read/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Mark the listed notifications read (all when `ids` is left out)',
        body: ZMarkReadBody,
        response: { 200: ZUnreadCount },
        security,
      },
    },
    async (request) => markNotificationsRead(deps, requireAuth(request).user.id, request.body.ids),
  );
}
