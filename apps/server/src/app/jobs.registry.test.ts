import { parseCrontab } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppDeps } from './deps.js';
import { buildTaskList, crontab, jobDefinitions } from './jobs.registry.js';
import { defineJob } from '../shared/jobs.js';

describe('job registry', () => {
  const tasks = buildTaskList({} as AppDeps);

  it('has a handler for every defined job', () => {
    expect(jobDefinitions.map((job) => job.name)).toEqual(
      expect.arrayContaining([
        'users:send_activation_email',
        'users:send_password_reset_email',
        'telegram:send_message',
        'notifications:deliver',
        'generations:run',
        'models:train',
      ]),
    );
    for (const job of jobDefinitions) expect(tasks).toHaveProperty([job.name]);
  });

  it('refuses to start while a defined job has no handler', () => {
    const orphan = defineJob({ name: 'test:orphan', payload: z.object({}), maxAttempts: 1 });
    expect(() => buildTaskList({} as AppDeps, [...jobDefinitions, orphan])).toThrow(
      'No handler for the job "test:orphan".',
    );
  });

  it('has a valid crontab whose every task has a handler', () => {
    const items = parseCrontab(crontab);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(tasks).toHaveProperty([item.task]);
  });
});
