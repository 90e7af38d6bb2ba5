// The operations module's public face: its routes and hooks, and the recorders other features call.
export { createMetricsOf, registerOpsRoutes } from './ops.routes.js';
export { startWorkerMetricsServer } from './worker-metrics.js';
export { recordEventStreamClosed, recordEventStreamOpened, recordGenerationEnded } from './metrics.js';
export { createErrorReporter, reportJobErrors, type ErrorReporter } from './error-reporting.js';
export { requestIdFor } from './ops.models.js';
