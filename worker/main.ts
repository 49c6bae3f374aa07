import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../activities';
import { createModelRegistry } from '../activities/models/registry';
import { createToolRegistry } from '../activities/tools/registry';
import { loadConfig, type Config } from '../api/config';
import { createLogger } from '../api/logger';
import { createTemporal, type Temporal } from '../api/temporal';
import { initOrm, type Orm } from '../db/orm';

/** Builds a worker on the `runs` task queue with its activities; used by `npm run worker` and the tests. */
export async function createWorker(
  config: Config,
  orm: Orm,
  connection: NativeConnection,
  opts: { workflowBundle?: { code: string }; temporal: Temporal },
): Promise<Worker> {
  return Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    // Tests bundle the workflows once per suite and hand the bundle in (STYLE: samples-typescript tests).
    ...(opts.workflowBundle
      ? { workflowBundle: opts.workflowBundle }
      : { workflowsPath: require.resolve('../workflows') }),
    activities: createActivities({
      config,
      orm,
      models: createModelRegistry(config.openai),
      tools: createToolRegistry({ allowPrivate: config.allowPrivateWebhooks }),
      temporal: opts.temporal,
    }),
  });
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
