import { NativeConnection, Worker } from '@temporalio/worker';
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

/** The worker of one process: what `npm run worker` runs and the tests start in-process. */
export interface ServiceWorker {
  /** Polls until shut down (SIGINT/SIGTERM, or `shutdown()`). */
  run(): Promise<void>;
  shutdown(): void;
  getState(): ReturnType<Worker['getState']>;
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
  opts: { workflowBundle?: { code: string }; temporal: Temporal; mailer?: Mailer },
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
  });
  const webhooks = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: webhookTaskQueue(config.temporal.taskQueue),
    dataConverter,
    activities: deliveries,
    maxConcurrentActivityTaskExecutions: config.webhookConcurrency,
  });
  const workers = [runs, webhooks];
  return {
    run: async () => {
      await Promise.all(workers.map((w) => w.run()));
    },
    shutdown: () => {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    },
    getState: () => runs.getState(),
  };
}

/** `npm run worker`: one worker process against running PostgreSQL and Temporal. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const orm = await initOrm(config.databaseUrl, config.dbPoolMax);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const temporal = createTemporal(config.temporal);
  const worker = await createWorker(config, orm, connection, { temporal });
  logger.info({ taskQueue: config.temporal.taskQueue, address: config.temporal.address }, 'worker running');
  // Worker.run() shuts down gracefully on SIGINT/SIGTERM by itself.
  await worker.run();
  await connection.close();
  await temporal.close();
  await orm.close();
}

if (require.main === module) {
  main().catch((err) => {
    console.error('worker failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
