import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppMetrics } from '../../shared/metrics.js';
import { decideMetricsAccess } from './ops.models.js';

export interface WorkerMetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The job worker's process serves no API, yet it is where generations end: with
 * METRICS_WORKER_PORT set it answers GET /metrics on that port, under the same rule as the API's
 * (METRICS_TOKEN, else loopback only).
 */
export async function startWorkerMetricsServer(options: {
  port: number;
  host: string;
  token: string | undefined;
  metrics: AppMetrics;
}): Promise<WorkerMetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.');
      return;
    }
    const access = decideMetricsAccess({
      token: options.token,
      authorization: request.headers.authorization,
      peerAddress: request.socket.remoteAddress,
    });
    if (access !== 'allowed') {
      const status = access === 'bad_token' ? 401 : 404;
      response
        .writeHead(status, { 'content-type': 'text/plain' })
        .end(status === 401 ? 'Unauthorized.' : 'Not found.');
      return;
    }
    options.metrics.render().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed.'),
    );
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
