import type { NotificationsDeps } from './notifications.deps.js';
import { toTask } from '../../shared/jobs.js';
import { deliverNotificationJob } from './notifications.jobs.definitions.js';
import { deliverNotification } from './notifications.usecases.js';

export function notificationsJobHandlers(deps: NotificationsDeps) {
  return {
    [deliverNotificationJob.name]: toTask(deliverNotificationJob, ({ notificationId, channel }) =>
      deliverNotification(deps, notificationId, channel),
    ),
  };
}
