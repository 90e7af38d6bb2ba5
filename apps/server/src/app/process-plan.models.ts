/**
 * Which processes `npm start` runs on one machine. The job worker gets a process of its own by
 * default, so its pixel work and model inference never hold up the API's event loop. API
 * processes share the port through Node's cluster; by default one per core left over after the
 * worker's, at most four (each holds its own database pool, and PostgreSQL's connections are few).
 */
export interface ProcessPlan {
  /** API processes; 1 means the supervising process serves the API itself. */
  apiProcesses: number;
  /** Where the job worker runs. */
  worker: 'process' | 'inline' | 'none';
}

export function planProcesses(
  settings: { runWorker: 'process' | 'inline' | 'none'; webConcurrency?: number | 'auto' },
  cores: number,
): ProcessPlan {
  const apiProcesses =
    settings.webConcurrency === 'auto'
      ? Math.max(1, cores)
      : (settings.webConcurrency ?? Math.max(1, Math.min(4, cores - 1)));
  // Running the worker inside an API process makes sense with one API process only: with
  // several, each would run its own worker pool.
  const worker = settings.runWorker === 'inline' && apiProcesses > 1 ? 'process' : settings.runWorker;
  return { apiProcesses, worker };
}
