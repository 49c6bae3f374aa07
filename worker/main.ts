import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities, createDeliveryActivities } from '../activities';
import { webhookTaskQueue } from '../workflows/taskQueues';
import { createModelRegistry } from '../domain/models/registry';
import { createToolRegistry } from '../domain/tools/registry';
import { createChannelRegistry } from '../domain/conversations/channelRegistry';
import { registerAreaTools, registerChannels, registerOutboxCalls } from '../domain/plugins';
import { createStorage } from '../platform/storage/storage';
import { createResolver } from '../platform/net/dnsServers';
import { loadConfig, type Config } from '../platform/config';
import { createLogger } from '../platform/logger';
import type { Mailer } from '../platform/mailer';
import { createTemporal, type Temporal } from '../platform/temporal';
import { temporalDataConverter } from '../platform/payloadCodec';
import { initOrm, type Orm } from '../db/orm';
import { createMetrics, metricsObserver, type Metrics } from '../platform/metrics/registry';
import { serveMetrics, type MetricsServer } from '../platform/metrics/server';
import { registerObserver } from '../domain/shared/observations';
import { syncNamespaceRetention, syncRetentionSchedule } from '../domain/retention/schedule';
import type { Context as ActivityContext } from '@temporalio/activity';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import { startTracing, type Tracing } from '../platform/tracing';

/** The worker of one process: what `npm run worker` runs and the tests start in-process. */
export interface ServiceWorker {
  /** Polls until shut down (SIGINT/SIGTERM, or `shutdown()`). */
  run(): Promise<void>;
  shutdown(): void;
  getState(): ReturnType<Worker['getState']>;
  /** The worker's `GET /metrics` address when `SVC_WORKER_METRICS_PORT` is set (docs/operations.md#metrics). */
  metricsUrl?: string;
}

/** The activities of the runs task queue with their dependencies, as the worker process builds them. */
export function runsQueueActivities(config: Config, orm: Orm, temporal: Temporal, mailer?: Mailer) {
  // Activities relay outbox rows too (eval supervision answers gates and cancels runs).
  registerOutboxCalls();
  return createActivities({
    config,
    orm,
    models: createModelRegistry(config.openai),
    tools: registerAreaTools(
      createToolRegistry({ allowPrivate: config.allowPrivateEgress, resolver: createResolver(config.dnsServers) }),
      { orm, storage: createStorage(config.storageUrl, config.s3), zipLimits: config.zipLimits },
    ),
    channels: registerChannels(createChannelRegistry(), { orm, config }),
    temporal,
    mailer,
  });
}

/**
 * Builds the process's two Temporal workers: the runs task queue (the workflows and the runs'
 * activities) and the webhook task queue (delivery attempts), so deliveries have activity slots of
 * their own and hanging receivers can never starve the runs.
 */
export async function createWorker(
  config: Config,
  orm: Orm,
  connection: NativeConnection,
  opts: {
    workflowBundle?: { code: string };
    temporal: Temporal;
    mailer?: Mailer;
    metrics?: Metrics;
    /** Traces of workflows and activities (docs/operations.md#traces); a given bundle must carry its interceptors. */
    tracing?: Tracing;
  },
): Promise<ServiceWorker> {
  // One set for the process: the runs worker's inline fan-outs share the webhook queue's limit and connections.
  const deliveries = createDeliveryActivities({ config, orm });
  // Payloads encrypted like every Temporal client's (platform/payloadCodec.ts).
  const dataConverter = temporalDataConverter(config.temporal.payloadKeys);
  const runs = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    dataConverter,
    // Tests bundle the workflows once per suite and hand the bundle in (see test/helpers/worker.ts).
    ...(opts.workflowBundle
      ? { workflowBundle: opts.workflowBundle }
      : { workflowsPath: require.resolve('../workflows') }),
    activities: {
      ...runsQueueActivities(config, orm, opts.temporal, opts.mailer),
      fanOutFirstAttemptsHere: deliveries.fanOutFirstAttemptsHere,
    },
    ...tracedWorker(opts.tracing, !opts.workflowBundle),
  });
  const webhooks = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: webhookTaskQueue(config.temporal.taskQueue),
    dataConverter,
    activities: deliveries,
    maxConcurrentActivityTaskExecutions: config.webhookConcurrency,
    ...tracedWorker(opts.tracing, false),
  });
  const workers = [runs, webhooks];
  const observed = await observeWorker(config, opts.metrics);
  return {
    metricsUrl: observed.server?.url,
    run: async () => {
      try {
        await Promise.all(workers.map((w) => w.run()));
      } finally {
        observed.unobserve();
        await observed.server?.close();
      }
    },
    shutdown: () => {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    },
    getState: () => runs.getState(),
  };
}

/** The bundle's interceptors when tracing: a workflow's spans, and its activities' context. */
export const TRACING_WORKFLOW_MODULES = [require.resolve('./tracingInterceptors')];

/**
 * A worker's tracing options (docs/operations.md#traces): each activity a span, continuing the trace of the
 * workflow that scheduled it; the workflows' spans leave the sandbox through the `exporter` sink. The
 * workflow interceptors go in the bundle (`withWorkflowModules` when the worker bundles it itself).
 */
function tracedWorker(tracing: Tracing | undefined, withWorkflowModules: boolean) {
  if (!tracing) return {};
  return {
    interceptors: {
      activity: [
        (ctx: ActivityContext) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
      ...(withWorkflowModules ? { workflowModules: TRACING_WORKFLOW_MODULES } : {}),
    },
    sinks: { exporter: makeWorkflowExporter(tracing.exporter, tracing.resource) },
  };
}

/**
 * The worker's metrics (docs/operations.md#metrics): the domain's reports counted into `metrics`, served on
 * `SVC_WORKER_METRICS_PORT` when it is set.
 */
async function observeWorker(
  config: Config,
  given?: Metrics,
): Promise<{ unobserve: () => void; server?: MetricsServer }> {
  const at = config.observability.workerMetrics;
  if (!at && !given) return { unobserve: () => undefined };
  const metrics = given ?? createMetrics();
  const unobserve = registerObserver(metricsObserver(metrics));
  try {
    return { unobserve, server: at ? await serveMetrics(metrics, at.host, at.port) : undefined };
  } catch (err) {
    unobserve();
    throw err;
  }
}

/**
 * What one worker process sets up in Temporal for the whole service, idempotently at every start: the daily
 * retention schedule and the namespace's retention to match (docs/operations.md#retention). A failure is
 * logged and the worker runs on: the next start tries again.
 */
async function syncTemporalSettings(config: Config, temporal: Temporal, logger: ReturnType<typeof createLogger>) {
  try {
    await syncRetentionSchedule(temporal.client, config.temporal.taskQueue);
    const days = await syncNamespaceRetention(temporal, config.temporal.namespace, config.retention.days);
    logger.info({ namespaceRetentionDays: days }, 'retention schedule and namespace retention set');
  } catch (err) {
    logger.warn({ err }, 'retention schedule or namespace retention not set');
  }
}

/** `npm run worker`: one worker process against running PostgreSQL and Temporal. */
async function main(): Promise<void> {
  const config = loadConfig();
  const endpoint = config.observability.otlpEndpoint;
  const tracing = endpoint ? startTracing(endpoint, 'svc-worker') : undefined;
  const logger = createLogger(config.logLevel);
  // The SDK's own worker metrics (task slots, polls, latencies) on a Prometheus endpoint of their own; the
  // runtime is installed once, before the first connection.
  const sdkMetrics = config.observability.temporalMetrics;
  if (sdkMetrics) {
    Runtime.install({
      telemetryOptions: {
        metrics: {
          // Prometheus's conventions, as svc's own series: seconds, and `_total` on counters
          prometheus: {
            bindAddress: `${sdkMetrics.host}:${sdkMetrics.port}`,
            useSecondsForDurations: true,
            countersTotalSuffix: true,
          },
        },
      },
    });
  }
  const orm = await initOrm(config.databaseUrl, config.dbPoolMax);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const temporal = createTemporal(config.temporal);
  await syncTemporalSettings(config, temporal, logger);
  const worker = await createWorker(config, orm, connection, { temporal, tracing });
  logger.info(
    { taskQueue: config.temporal.taskQueue, address: config.temporal.address, metrics: worker.metricsUrl },
    'worker running',
  );
  // Worker.run() shuts down gracefully on SIGINT/SIGTERM by itself.
  await worker.run();
  await connection.close();
  await temporal.close();
  await orm.close();
  await tracing?.shutdown();
}

if (require.main === module) {
  main().catch((err) => {
    console.error('worker failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
