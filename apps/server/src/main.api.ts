import cluster from 'node:cluster';
import { runApiProcess, runSupervisor } from './app/supervisor.js';

// `npm start`: PostgreSQL, the API with the built web app, and the job worker in a process of its
// own (RUN_WORKER, WEB_CONCURRENCY choose the processes; see app/process-plan.models.ts).
if (cluster.isWorker) await runApiProcess();
else await runSupervisor();
