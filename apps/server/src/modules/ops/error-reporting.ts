import * as Sentry from '@sentry/node';
import type { ErrorEvent } from '@sentry/node';
import type { WorkerEvents } from 'graphile-worker';
import { requestIdOfJob } from '../../shared/jobs.js';

/**
 * Server errors (5xx answers, failed jobs) sent to a Sentry-compatible service (Sentry,
 * GlitchTip) when SENTRY_DSN is set; nothing at all otherwise. Events carry the user's id, the
 * release and the request id, never a body, a cookie, an Authorization header or a query string
 * (tokens, init data and photos travel there).
 */
export interface ErrorReporter {
  report(error: unknown, context: { userId?: number | null; requestId?: string; job?: string }): void;
  /** Waits for queued events to be sent (before a process exits; tests). */
  flush(timeoutMs?: number): Promise<boolean>;
}

export interface ErrorReportingConfig {
  dsn: string | undefined;
  environment: string;
  release: string;
}

const noReporter: ErrorReporter = { report() {}, flush: async () => true };
let activeDsn: string | undefined;

/** The SDK is global to the process: it is set up once, on the first app that has a DSN. */
export function createErrorReporter(config: ErrorReportingConfig): ErrorReporter {
  if (!config.dsn) return noReporter;
  if (activeDsn !== config.dsn) {
    Sentry.initWithoutDefaultIntegrations({
      dsn: config.dsn,
      environment: config.environment,
      release: config.release,
      // Only what this module captures: no console, HTTP or database instrumentation.
      integrations: [],
      enableRuntimeChannelInjection: false,
      beforeSend: stripPersonalData,
      beforeBreadcrumb: () => null,
    });
    activeDsn = config.dsn;
  }
  return {
    report(error, context) {
      Sentry.captureException(error, {
        user: context.userId ? { id: String(context.userId) } : undefined,
        tags: {
          ...(context.requestId ? { request_id: context.requestId } : {}),
          ...(context.job ? { job: context.job } : {}),
        },
      });
    },
    flush: (timeoutMs = 2000) => Sentry.flush(timeoutMs),
  };
}

/** Keeps an event's request to its method and path: no body, cookies, headers or query. */
export function stripPersonalData(event: ErrorEvent): ErrorEvent {
  if (event.request) {
    const url = event.request.url?.split('?')[0];
    event.request = { method: event.request.method, ...(url ? { url } : {}) };
  }
  if (event.user) event.user = event.user.id ? { id: event.user.id } : {};
  delete event.extra;
  delete event.breadcrumbs;
  return event;
}

/** Each failed attempt of a job is reported with the job's name and the request that added it. */
export function reportJobErrors(events: WorkerEvents, reporter: ErrorReporter): void {
  events.on('job:error', ({ job, error }) => {
    reporter.report(error, { job: job.task_identifier, requestId: requestIdOfJob(job.payload) });
  });
}
