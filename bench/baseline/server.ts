import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import { loadConfig } from '../../platform/config';
import { startRunWorkflow } from '../../domain/runs/workflowStarter';
import { createTemporal } from '../../platform/temporal';

/**
 * The benchmark's bare server: a Koa app with no middleware, started like the API (its own `tsx`
 * process, `PORT`), so that HTTP, Koa and the process model cost the same on both sides.
 *   GET  /noop   → 200 {}           (baseline of GET /v1/runs/{id})
 *   POST /start  → 201 {}           (baseline of POST /v1/runs: the same Temporal start, nothing else)
 * BENCH_IDLE_QUEUE names the task queue /start uses (one no worker polls, like the API under test).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const queue = process.env.BENCH_IDLE_QUEUE;
  if (!queue) throw new Error('BENCH_IDLE_QUEUE is required');
  const temporalConfig = { ...config.temporal, taskQueue: queue };
  const temporal = createTemporal(temporalConfig);
  const workspaceId = randomUUID();
  const agentId = randomUUID();

  const router = new Router();
  router.get('/noop', (ctx) => {
    ctx.body = {};
  });
  router.post('/start', async (ctx) => {
    // exactly the call the API makes, with the same deadline
    await temporal.call(() =>
      startRunWorkflow(temporal.client, temporalConfig, { id: randomUUID(), workspaceId, agentId }),
    );
    ctx.status = 201;
    ctx.body = {};
  });
  const app = new Koa();
  app.use(router.routes());
  app.listen(config.port, '127.0.0.1', () => console.log(`baseline listening on ${config.port}`));
}

main().catch((err) => {
  console.error('baseline server failed:', err);
  process.exit(1);
});
