import { describe, expect, it } from 'vitest';
import { planProcesses } from './process-plan.models.js';

describe('planProcesses', () => {
  it('by default runs the worker in its own process and one API process per spare core, at most four', () => {
    expect(planProcesses({ runWorker: 'process' }, 1)).toEqual({ apiProcesses: 1, worker: 'process' });
    expect(planProcesses({ runWorker: 'process' }, 2)).toEqual({ apiProcesses: 1, worker: 'process' });
    expect(planProcesses({ runWorker: 'process' }, 4)).toEqual({ apiProcesses: 3, worker: 'process' });
    expect(planProcesses({ runWorker: 'process' }, 32)).toEqual({ apiProcesses: 4, worker: 'process' });
  });

  it('takes WEB_CONCURRENCY as a number, or one per core with auto', () => {
    expect(planProcesses({ runWorker: 'process', webConcurrency: 3 }, 2).apiProcesses).toBe(3);
    expect(planProcesses({ runWorker: 'none', webConcurrency: 'auto' }, 6)).toEqual({
      apiProcesses: 6,
      worker: 'none',
    });
  });

  it('runs the worker inline only beside a single API process', () => {
    expect(planProcesses({ runWorker: 'inline' }, 2)).toEqual({ apiProcesses: 1, worker: 'inline' });
    expect(planProcesses({ runWorker: 'inline', webConcurrency: 2 }, 2)).toEqual({
      apiProcesses: 2,
      worker: 'process',
    });
  });
});
