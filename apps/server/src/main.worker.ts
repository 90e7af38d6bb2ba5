import { startRuntime, stopOnSignals } from './app/runtime.js';

// `npm run worker`: only the job worker, for running workers apart from the API nodes; also the
// job worker process that `npm start` runs beside the API.
const runtime = await startRuntime({ api: false, worker: true });
stopOnSignals(runtime);
runtime.deps.logger.info('Mirra worker is running');
process.send?.({ mirra: 'ready' });
