import { NativeConnection, Worker } from '@temporalio/worker';
import { temporalDataConverter } from '../platform/payloadCodec';
import { loadConfig } from '../platform/config';
import { createTemporal } from '../platform/temporal';
import { initOrm } from '../db/orm';
import { createWorker } from '../worker/main';
import { Pool } from 'pg';
import { bareActivities, durableActivities, fanOutActivities } from './baseline/activities';

/**
 * The benchmark's worker process: the service's own worker (`createWorker`, as `npm run worker`
 * builds it) on the runs task queue, and beside it, in the same process and with the same options,
 * a worker for the baseline workflows on BENCH_BARE_QUEUE. One process for both, so a baseline never
 * gets a CPU the service did not have.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const bareQueue = process.env.BENCH_BARE_QUEUE;
  if (!bareQueue) throw new Error('BENCH_BARE_QUEUE is required');
  const orm = await initOrm(config.databaseUrl, config.dbPoolMax);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const temporal = createTemporal(config.temporal);
  const service = await createWorker(config, orm, connection, { temporal });
  const baselineDb = new Pool({ connectionString: config.databaseUrl, max: 4 });
  const bare = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    dataConverter: temporalDataConverter(config.temporal.payloadKeys),
    taskQueue: bareQueue,
    workflowsPath: require.resolve('./baseline/workflows'),
    activities: { ...bareActivities, ...durableActivities(baselineDb), ...fanOutActivities(baselineDb) },
  });
  console.log('bench worker running');
  await Promise.all([service.run(), bare.run()]);
  await connection.close();
  await temporal.close();
  await orm.close();
}

main().catch((err) => {
  console.error('bench worker failed:', err);
  process.exit(1);
});
