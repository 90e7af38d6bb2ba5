// Notifications: the list and (on demand) the header bell.
export { NotificationsList } from './components/notifications-list';
export { NotificationPreferences } from './components/notification-preferences';
