import { z } from 'zod';
import { defineJob } from '../../shared/jobs.js';

/**
 * Carries one notice to one channel outside the app. A job, so the event's transaction only adds
 * it, a provider hiccup is retried with backoff, and the user's preferences are read again right
 * before sending (a channel turned off while the job waited is honoured).
 */
export const deliverNotificationJob = defineJob({
  name: 'notifications:deliver',
  payload: z.object({
    notificationId: z.number().int(),
    channel: z.enum(['telegram', 'email']),
  }),
  maxAttempts: 8,
});

/** Every job this module defines; the worker refuses to start while one has no handler. */
export const notificationsJobDefinitions = [deliverNotificationJob] as const;
