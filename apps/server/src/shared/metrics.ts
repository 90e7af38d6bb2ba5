import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type pg from 'pg';
import { AppError } from './errors.js';

/**
 * Metrics that belong to the process, whichever app it runs: process metrics (CPU, memory, event
 * loop, handles), generations, open event streams. Made once per process; each API process of
 * `npm start` exposes its own (Prometheus adds them up per instance).
 */
const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry, prefix: 'mirra_' });

const generationDuration = new Histogram({
  name: 'mirra_generation_duration_seconds',
  help: 'Time from a generation being asked for to its end, by mode, engine and outcome.',
  labelNames: ['mode', 'engine', 'outcome'] as const,
  buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200],
  registers: [processRegistry],
});

const generationFailures = new Counter({
  name: 'mirra_generation_failures_total',
  help: 'Generations that ended without a result, by mode, engine and reason (a stable code).',
  labelNames: ['mode', 'engine', 'reason'] as const,
  registers: [processRegistry],
});

const eventStreams = new Gauge({
  name: 'mirra_sse_connections',
  help: 'Server-sent event streams open now (generation and training progress).',
  registers: [processRegistry],
});

const payments = new Counter({
  name: 'mirra_payments_total',
  help: 'Payments that changed state, by provider, currency (ISO 4217 number) and outcome (paid, failed, refunded).',
  labelNames: ['provider', 'currency', 'outcome'] as const,
  registers: [processRegistry],
});

const webhookErrors = new Counter({
  name: 'mirra_webhook_errors_total',
  help: 'Provider notifications refused or not applied, by source (payment provider or engine) and reason.',
  labelNames: ['source', 'reason'] as const,
  registers: [processRegistry],
});

export type PaymentOutcome = 'paid' | 'failed' | 'refunded';

/** Records a payment that changed state, once its transaction has committed. */
export function recordPayment(provider: string, currency: number, outcome: PaymentOutcome): void {
  payments.inc({ provider, currency: String(currency), outcome });
}

/**
 * Why a provider's notification was not applied: its signature did not hold, it named nothing
 * known (yet), or applying it failed.
 */
export type WebhookErrorReason = 'bad_signature' | 'unknown' | 'processing_error';

export function recordWebhookError(source: string, reason: WebhookErrorReason): void {
  webhookErrors.inc({ source, reason });
}

/** The webhook errors this process counted since it started, as `/metrics` reports them. */
export async function readWebhookErrors(): Promise<Array<{ source: string; reason: string; count: number }>> {
  const { values } = await webhookErrors.get();
  return values
    .filter((value) => value.value > 0)
    .map((value) => ({
      source: String(value.labels.source),
      reason: String(value.labels.reason),
      count: value.value,
    }));
}

const BAD_SIGNATURE_CODES = new Set(['payments.signature_invalid', 'engines.webhook_forbidden']);

/**
 * Runs a provider notification's handler, counting a refusal or failure by its reason, and
 * passes the outcome on unchanged.
 */
export async function countingWebhookErrors<T>(source: string, handle: () => Promise<T>): Promise<T> {
  try {
    return await handle();
  } catch (error) {
    const code = error instanceof AppError ? error.code : undefined;
    recordWebhookError(
      source,
      code && BAD_SIGNATURE_CODES.has(code)
        ? 'bad_signature'
        : code === 'engines.webhook_unknown_request'
          ? 'unknown'
          : 'processing_error',
    );
    throw error;
  }
}

export interface EndedGeneration {
  mode: string;
  engine: string;
  createdAt: Date;
}

/** Records a generation that ended: its duration, and for a failure its reason. */
export function recordGenerationEnded(
  generation: EndedGeneration,
  outcome: { status: 'completed' } | { status: 'failed'; reason: string },
  endedAt: Date,
): void {
  const seconds = Math.max(0, (endedAt.getTime() - generation.createdAt.getTime()) / 1000);
  const { mode, engine } = generation;
  generationDuration.observe({ mode, engine, outcome: outcome.status }, seconds);
  if (outcome.status === 'failed') generationFailures.inc({ mode, engine, reason: outcome.reason });
}

export function recordEventStreamOpened(): void {
  eventStreams.inc();
}

export function recordEventStreamClosed(): void {
  eventStreams.dec();
}

/** The metrics of one app: its HTTP requests, its database pool and its job queue. */
export interface AppMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  /** Every metric of the process and this app, in Prometheus' text format. */
  render(): Promise<{ contentType: string; body: string }>;
}

export function createAppMetrics(sources: {
  pool: pg.Pool;
  /** Jobs waiting to run (not locked by a worker); queried on each scrape. */
  countQueuedJobs(): Promise<number>;
}): AppMetrics {
  const registry = new Registry();
  const httpDuration = new Histogram({
    name: 'mirra_http_request_duration_seconds',
    help: 'HTTP request durations by method, route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'mirra_job_queue_depth',
    help: 'Background jobs waiting to run (not locked by a worker).',
    registers: [registry],
    async collect() {
      this.set(await sources.countQueuedJobs());
    },
  });
  const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(sources.pool));
      },
    });
  poolGauge('mirra_pg_pool_connections', 'PostgreSQL connections this process holds.', (p) => p.totalCount);
  poolGauge('mirra_pg_pool_idle_connections', 'PostgreSQL connections held but idle.', (p) => p.idleCount);
  poolGauge(
    'mirra_pg_pool_waiting_requests',
    'Queries waiting for a free connection.',
    (p) => p.waitingCount,
  );
  const merged = Registry.merge([processRegistry, registry]);
  return {
    registry,
    httpDuration,
    async render() {
      return { contentType: merged.contentType, body: await merged.metrics() };
    },
  };
}
