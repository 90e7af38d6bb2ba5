// Closed-loop HTTP load, run in a worker thread by load.ts (plain JS: workers get no TS loader).
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const {
  url,
  headers,
  headersPerConnection,
  connections,
  seconds,
  method = 'GET',
  body,
  okStatus = 200,
  // Optional: an Int32Array over a SharedArrayBuffer; the load ends early once its first cell is 1.
  stopFlag,
  // Optional: each connection waits this long after an answer before its next request.
  pauseMs = 0,
} = workerData;
const pause = () => new Promise((resolve) => setTimeout(resolve, pauseMs));
const stopped = () => stopFlag !== undefined && Atomics.load(stopFlag, 0) === 1;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const latencies = [];
let errors = 0;
const started = performance.now();
const deadline = started + seconds * 1000;

const once = (connection) =>
  new Promise((resolve) => {
    const t0 = performance.now();
    const own = headersPerConnection
      ? headersPerConnection[connection % headersPerConnection.length]
      : headers;
    const request = http.request(
      url,
      { method, agent, headers: body ? { 'content-type': 'application/json', ...own } : own },
      (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === okStatus) latencies.push(performance.now() - t0);
          else errors++;
          resolve();
        });
      },
    );
    request.on('error', () => {
      errors++;
      resolve();
    });
    request.end(body);
  });

await Promise.all(
  Array.from({ length: connections }, async (_, connection) => {
    while (performance.now() < deadline && !stopped()) {
      await once(connection);
      if (pauseMs > 0) await pause();
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
agent.destroy();
parentPort.postMessage({
  requests: latencies.length,
  errors,
  seconds: elapsed,
  rps: latencies.length / elapsed,
  p50Ms: at(0.5),
  p99Ms: at(0.99),
});
