/**
 * The public face of the ops module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export { createErrorReporter, reportJobErrors } from './error-reporting.js';
export type { OpsDeps } from './ops.deps.js';
export { requestIdFor } from './ops.models.js';
export { createMetricsOf, registerOpsRoutes } from './ops.routes.js';
export { startWorkerMetricsServer } from './worker-metrics.js';
