import { startRuntime, stopOnSignals } from './app/runtime.js';

// `npm run worker`: only the job worker, for running workers apart from the API nodes.
const runtime = await startRuntime({ api: false, worker: true });
stopOnSignals(runtime);
runtime.deps.logger.info('Mirra worker is running');
