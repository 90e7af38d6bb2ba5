import { sql } from 'drizzle-orm';
import type { TaskList } from 'graphile-worker';
import { creditsJobHandlers } from '../modules/credits/index.js';
import { generationsJobDefinitions, generationsJobHandlers } from '../modules/generations/index.js';
import { modelsJobDefinitions, modelsJobHandlers } from '../modules/models/index.js';
import { notificationsJobDefinitions, notificationsJobHandlers } from '../modules/notifications/index.js';
import { paymentsJobHandlers } from '../modules/payments/index.js';
import { deleteViewsBefore, viewDay } from '../modules/posts/index.js';
import {
  deleteExpiredAuthKeys,
  telegramJobDefinitions,
  telegramJobHandlers,
} from '../modules/telegram/index.js';
import { usersJobDefinitions, usersJobHandlers } from '../modules/users/index.js';
import { partnersJobHandlers } from '../modules/partners/index.js';
import { subscriptionsJobDefinitions, subscriptionsJobHandlers } from '../modules/subscriptions/index.js';
import { walletJobHandlers } from '../modules/wallet/index.js';
import { deleteStoredFilesJob, storageJobHandlers } from '../shared/storage/file-deletion.js';
import { REMEMBERED_DAYS, REMEMBERED_KEY_PREFIX } from '../shared/rate-limiter.js';
import type { AppDeps } from './deps.js';
import { recoverWorkOfDeadWorkers } from './worker-recovery.js';

/** Every job a module defines (name, payload, attempts), so use cases can add it. */
export const jobDefinitions: readonly { name: string }[] = [
  ...usersJobDefinitions,
  ...telegramJobDefinitions,
  ...notificationsJobDefinitions,
  ...generationsJobDefinitions,
  ...modelsJobDefinitions,
  ...subscriptionsJobDefinitions,
  deleteStoredFilesJob,
];

/**
 * Every job the worker runs, by name. The worker refuses to start if a name has two handlers, or
 * a defined job has none (it could be added, and would then wait forever).
 */
export function buildTaskList(deps: AppDeps, definitions = jobDefinitions): TaskList {
  const groups: TaskList[] = [
    usersJobHandlers(deps),
    telegramJobHandlers(deps),
    notificationsJobHandlers(deps),
    creditsJobHandlers(deps),
    generationsJobHandlers(deps),
    maintenanceJobHandlers(deps),
    modelsJobHandlers(deps),
    paymentsJobHandlers(deps),
    walletJobHandlers(deps),
    partnersJobHandlers(deps),
    subscriptionsJobHandlers(deps),
    storageJobHandlers(deps),
  ];
  const tasks: TaskList = {};
  for (const group of groups) {
    for (const [name, task] of Object.entries(group)) {
      if (tasks[name]) throw new Error(`Job "${name}" has two handlers.`);
      tasks[name] = task;
    }
  }
  const unhandled = definitions.filter((job) => !tasks[job.name]).map((job) => `"${job.name}"`);
  if (unhandled.length) throw new Error(`No handler for the job ${unhandled.join(', ')}.`);
  return tasks;
}

function maintenanceJobHandlers(deps: AppDeps): TaskList {
  return {
    'maintenance:cleanup': async () => {
      const now = deps.now();
      await deleteExpiredAuthKeys(deps, new Date(now.getTime() - 24 * 3600 * 1000));
      // Addresses an account signed in from are kept longer: they stay trusted while a
      // sign-in attack on the account goes on.
      await deps.db.execute(
        sql`DELETE FROM rate_limit_counters
            WHERE window_start < ${new Date(now.getTime() - 24 * 3600 * 1000).toISOString()}::timestamptz
              AND (key NOT LIKE ${`${REMEMBERED_KEY_PREFIX}%`}
                   OR window_start < ${new Date(now.getTime() - REMEMBERED_DAYS * 24 * 3600 * 1000).toISOString()}::timestamptz)`,
      );
      await deps.db.execute(
        sql`DELETE FROM refresh_tokens WHERE expires_at < ${now.toISOString()}::timestamptz`,
      );
      // Views are deduplicated per day: earlier days can no longer be counted again.
      await deleteViewsBefore(deps, viewDay(new Date(now.getTime() - 24 * 3600 * 1000)));
      await deps.db.execute(
        sql`DELETE FROM telegram_updates WHERE received_at < ${new Date(now.getTime() - 7 * 24 * 3600 * 1000).toISOString()}::timestamptz`,
      );
    },
    // Also run when a worker starts; every minute covers a worker that died while others ran on.
    'workers:recover': async () => {
      await recoverWorkOfDeadWorkers(deps);
    },
  };
}

/** Recurring jobs (graphile-worker crontab syntax). */
export const crontab = [
  '17 * * * * maintenance:cleanup',
  // Nightly proof that every cached credit balance equals its ledger.
  '40 3 * * * credits:reconcile',
  // Nightly proof that commissions, pay-outs and partner aggregates agree with the wallet ledger.
  '50 3 * * * partners:reconcile',
  '* * * * * generations:reconcile',
  '* * * * * models:reconcile',
  '* * * * * workers:recover',
  // Partner commissions whose hold ended become available; the tops lists are recomputed.
  '*/5 * * * * partners:release_commissions',
  '*/10 * * * * partners:compute_tops',
  // Payments whose notification never came are re-checked with their provider.
  '*/2 * * * * payments:reconcile',
  // Money held for a partner commission's hold becomes available; this notes each release.
  '*/5 * * * * wallet:release_frozen',
  // Premium renewals due (ahead of each next charge date) and retries of failed ones.
  '*/5 * * * * subscriptions:renew',
].join('\n');
