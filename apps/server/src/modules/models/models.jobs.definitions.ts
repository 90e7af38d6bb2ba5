import { z } from 'zod';
import { defineJob } from '../../shared/jobs.js';

export const trainModelJob = defineJob({
  name: 'models:train',
  payload: z.object({ modelId: z.number().int(), attempt: z.number().int() }),
  maxAttempts: 3,
});

/** Every job this module defines; the worker refuses to start while one has no handler. */
export const modelsJobDefinitions = [trainModelJob] as const;
