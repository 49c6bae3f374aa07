import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: a fast API answer to a slow stream's end. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds a person takes to answer a gate: a minute to a week. */
const GATE_BUCKETS = [10, 60, 300, 900, 3600, 4 * 3600, 24 * 3600, 3 * 24 * 3600, 7 * 24 * 3600];
/** Seconds of a delivery attempt, which gives up at 10. */
const DELIVERY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One process's metrics (docs/operations.md#metrics): a registry of its own, never prom-client's global one,
 * so every app and worker a test builds counts apart. Every series is named `svc_…`; the process's own
 * (CPU, memory, event loop lag) come with it as `svc_process_…` and `svc_nodejs_…`.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  runsCreated: Counter<'source'>;
  runsFinished: Counter<'status'>;
  gateWait: Histogram<'gate'>;
  webhookAttempts: Counter<'kind' | 'outcome'>;
  webhookDuration: Histogram<'kind' | 'outcome'>;
  streamsOpen: Gauge;
  /** A gauge whose value is read when scraped (a database query); a failed read shows NaN, never fails the scrape. */
  gaugeFrom(name: string, help: string, read: () => Promise<number>): void;
  /** The Prometheus text of every series, and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/**
 * A process's metrics; `processMetrics` adds the process's own series (their monitors run from then on), for a
 * registry someone scrapes.
 */
export function createMetrics({ processMetrics = true }: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (processMetrics) collectDefaultMetrics({ register: registry, prefix: 'svc_' });
  return {
    registry,
    httpRequests: new Counter({
      name: 'svc_http_requests_total',
      help: 'HTTP requests answered, by method, declared route (`unmatched` for any other path) and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'Time to answer an HTTP request (a stream: until it ends)',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    runsCreated: new Counter({
      name: 'svc_runs_created_total',
      help: 'Runs admitted: `request` by an API request, `worker` by a flow, turn or eval, `local` reported',
      labelNames: ['source'],
      registers,
    }),
    runsFinished: new Counter({
      name: 'svc_runs_finished_total',
      help: 'Runs that reached a terminal status, by status',
      labelNames: ['status'],
      registers,
    }),
    gateWait: new Histogram({
      name: 'svc_gate_wait_seconds',
      help: 'Time from a gate opening to its answer, by gate (input, approval, review)',
      labelNames: ['gate'],
      buckets: GATE_BUCKETS,
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'svc_webhook_attempts_total',
      help: 'Signed delivery attempts, by kind (webhook, output) and outcome (delivered, failed)',
      labelNames: ['kind', 'outcome'],
      registers,
    }),
    webhookDuration: new Histogram({
      name: 'svc_webhook_attempt_duration_seconds',
      help: 'Time of a signed delivery attempt, by kind and outcome',
      labelNames: ['kind', 'outcome'],
      buckets: DELIVERY_BUCKETS,
      registers,
    }),
    streamsOpen: new Gauge({
      name: 'svc_event_streams_open',
      help: 'Run event streams open in this process',
      registers,
    }),
    gaugeFrom(name, help, read) {
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(await read().catch(() => Number.NaN));
        },
      });
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/**
 * What the domain reports (domain/shared/observations.ts), counted into `metrics`: the observer the
 * composition roots register.
 */
export function metricsObserver(metrics: Metrics) {
  const kind = (log: string) =>
    log === 'webhook_deliveries' ? 'webhook' : log === 'output_deliveries' ? 'output' : log;
  return {
    runCreated: (source: string) => metrics.runsCreated.inc({ source }),
    runFinished: (status: string) => metrics.runsFinished.inc({ status }),
    gateAnswered: (gate: string, seconds: number) => metrics.gateWait.observe({ gate }, seconds),
    deliveryAttempt: (log: string, outcome: string, seconds: number) => {
      metrics.webhookAttempts.inc({ kind: kind(log), outcome });
      metrics.webhookDuration.observe({ kind: kind(log), outcome }, seconds);
    },
  };
}
