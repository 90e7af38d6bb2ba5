import { sql } from 'drizzle-orm';
import type { TaskList } from 'graphile-worker';
import { creditsJobHandlers } from '../modules/credits/index.js';
import { generationsJobHandlers } from '../modules/generations/index.js';
import { modelsJobHandlers } from '../modules/models/index.js';
import { postsRepository, viewDay } from '../modules/posts/index.js';
import { telegramJobHandlers, telegramRepository } from '../modules/telegram/index.js';
import { usersJobHandlers } from '../modules/users/index.js';
import type { AppDeps } from './deps.js';
import { recoverWorkOfDeadWorkers } from './worker-recovery.js';

/** Every job the worker runs, by name. The worker refuses to start if a name is defined twice. */
export function buildTaskList(deps: AppDeps): TaskList {
  const groups: TaskList[] = [
    usersJobHandlers(deps),
    telegramJobHandlers(deps),
    creditsJobHandlers(deps),
    generationsJobHandlers(deps),
    maintenanceJobHandlers(deps),
    modelsJobHandlers(deps),
  ];
  const tasks: TaskList = {};
  for (const group of groups) {
    for (const [name, task] of Object.entries(group)) {
      if (tasks[name]) throw new Error(`Job "${name}" has two handlers.`);
      tasks[name] = task;
    }
  }
  return tasks;
}

function maintenanceJobHandlers(deps: AppDeps): TaskList {
  return {
    'maintenance:cleanup': async () => {
      const now = deps.now();
      await telegramRepository.deleteExpiredAuthKeys(deps.db, new Date(now.getTime() - 24 * 3600 * 1000));
      await deps.db.execute(
        sql`DELETE FROM rate_limit_counters WHERE window_start < ${new Date(now.getTime() - 24 * 3600 * 1000).toISOString()}::timestamptz`,
      );
      await deps.db.execute(
        sql`DELETE FROM refresh_tokens WHERE expires_at < ${now.toISOString()}::timestamptz`,
      );
      // Views are deduplicated per day: earlier days can no longer be counted again.
      await postsRepository.deleteViewsBefore(deps.db, viewDay(new Date(now.getTime() - 24 * 3600 * 1000)));
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
  '* * * * * generations:reconcile',
  '* * * * * models:reconcile',
  '* * * * * workers:recover',
].join('\n');
