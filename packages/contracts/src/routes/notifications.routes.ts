import { defineRoute } from './define-route.js';

const tags = ['notifications'];

export const notificationsRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/notifications/',
    auth: 'required',
    tags,
    summary: 'My notifications, newest first, with the unread count',
    query: 'ZCursorQuery',
    response: { 200: 'ZNotificationList' },
  }),
  unread: defineRoute({
    method: 'GET',
    path: '/api/notifications/unread/',
    auth: 'required',
    tags,
    summary: 'How many notifications I have not read',
    response: { 200: 'ZUnreadCount' },
  }),
  markRead: defineRoute({
    method: 'POST',
    path: '/api/notifications/read/',
    auth: 'required',
    tags,
    summary: 'Mark the listed notifications read (all when `ids` is left out)',
    body: 'ZMarkReadBody',
    response: { 200: 'ZUnreadCount' },
  }),
  preferences: defineRoute({
    method: 'GET',
    path: '/api/notifications/preferences/',
    auth: 'required',
    tags,
    summary: 'Which notices I get, by category and channel (in the app, Telegram bot, email)',
    response: { 200: 'ZNotificationPreferences' },
  }),
  updatePreferences: defineRoute({
    method: 'PUT',
    path: '/api/notifications/preferences/',
    auth: 'required',
    tags,
    summary: 'Turn channels of notice categories on or off; answers every preference after the change',
    body: 'ZNotificationPreferencesBody',
    response: { 200: 'ZNotificationPreferences' },
  }),
};
