import { parseCrontab } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from './deps.js';
import { buildTaskList, crontab } from './jobs.registry.js';
import {
  sendActivationEmailJob,
  sendPasswordResetEmailJob,
} from '../modules/users/users.jobs.definitions.js';
import { sendTelegramMessageJob } from '../modules/telegram/telegram.jobs.definitions.js';
import { runGenerationJob } from '../modules/generations/generations.jobs.definitions.js';
import { trainModelJob } from '../modules/models/models.jobs.definitions.js';

describe('job registry', () => {
  const tasks = buildTaskList({} as AppDeps);

  it('has a handler for every defined job', () => {
    for (const job of [
      sendActivationEmailJob,
      sendPasswordResetEmailJob,
      sendTelegramMessageJob,
      runGenerationJob,
      trainModelJob,
    ]) {
      expect(tasks).toHaveProperty([job.name]);
    }
  });

  it('has a valid crontab whose every task has a handler', () => {
    const items = parseCrontab(crontab);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(tasks).toHaveProperty([item.task]);
  });
});
