import { startRuntime, stopOnSignals } from './app/runtime.js';

// `npm start`: the API, the built web app and (unless RUN_WORKER=false) the job worker, one process.
const runWorker = process.env.RUN_WORKER !== 'false' && process.env.RUN_WORKER !== '0';
const runtime = await startRuntime({ api: true, worker: runWorker });
stopOnSignals(runtime);
runtime.deps.logger.info(
  `Mirra is running at ${runtime.config.publicUrl} (API docs: ${runtime.config.publicUrl}/api/docs/)`,
);
