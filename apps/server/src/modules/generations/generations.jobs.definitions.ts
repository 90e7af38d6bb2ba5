import { z } from 'zod';
import { defineJob } from '../../shared/jobs.js';

export const runGenerationJob = defineJob({
  name: 'generations:run',
  payload: z.object({ generationId: z.number().int() }),
  maxAttempts: 3,
});

/** Every job this module defines; the worker refuses to start while one has no handler. */
export const generationsJobDefinitions = [runGenerationJob] as const;
