import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import { Pool } from 'pg';
import { loadConfig } from '../../platform/config';
import { startRunWorkflow } from '../../domain/runs/workflowStarter';
import { createTemporal } from '../../platform/temporal';

/**
 * The benchmark's bare server: a Koa app with no middleware, started like the API (its own `tsx`
 * process, `PORT`), so that HTTP, Koa and the process model cost the same on both sides.
 *   GET  /noop   → 200 {}           (baseline of GET /v1/runs/{id}: HTTP and Koa alone)
 *   GET  /runs/:id → 200 the run row (baseline of GET /v1/runs/{id}: the one `select` the read needs,
 *                  through `pg` with a pool as large as the API's; the necessary work, nothing else)
 *   POST /start  → 201 {}           (baseline of POST /v1/runs: the same Temporal start, nothing else)
 *   POST /start-durable → 201 {}    (baseline of POST /v1/runs: the necessary work, nothing else: the run
 *                  recorded in one durable commit, its input row inserted through `pg`, then the same start)
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

  const db = new Pool({ connectionString: config.databaseUrl, max: config.dbPoolMax });
  // A table of the baseline's own, so its rows never mix with the service's.
  await db.query(
    `create table if not exists bench_baseline_runs (
       id uuid primary key, workspace_id uuid not null, input jsonb not null, status text not null default 'queued',
       created_at timestamptz not null default now(), completed_at timestamptz)`,
  );
  // data kept from before the column (BENCH_KEEP_DATA)
  await db.query('alter table bench_baseline_runs add column if not exists completed_at timestamptz');
  // The fan-out baseline's deliveries (case 5), likewise its own.
  await db.query(
    `create table if not exists bench_baseline_deliveries (
       id uuid primary key default gen_random_uuid(), run_id uuid not null, url text not null, body text not null,
       created_at timestamptz not null default now())`,
  );

  const router = new Router();
  router.get('/noop', (ctx) => {
    ctx.body = {};
  });
  router.get('/runs/:id', async (ctx) => {
    // the columns GET /v1/runs/{id} reads (domain/runs/find.ts), by id alone
    const { rows } = await db.query(
      `select id, agent_id, agent_version, status, input, output, error, pending_action, input_tokens, output_tokens,
              cost_micros, metadata, created_at, updated_at, started_at, completed_at
         from runs where id = $1`,
      [ctx.params.id],
    );
    if (!rows[0]) ctx.status = 404;
    else ctx.body = rows[0];
  });
  router.post('/start', async (ctx) => {
    // exactly the call the API makes, with the same deadline
    await temporal.call(() =>
      startRunWorkflow(temporal.client, temporalConfig, { id: randomUUID(), workspaceId, agentId }),
    );
    ctx.status = 201;
    ctx.body = {};
  });
  router.post('/start-durable', async (ctx) => {
    // A run must be recorded before its workflow starts (or be lost when the start is not answered): one
    // commit, then the start. Everything else POST /v1/runs does is the service's own cost.
    const id = randomUUID();
    await db.query('insert into bench_baseline_runs (id, workspace_id, input) values ($1, $2, $3)', [
      id,
      workspaceId,
      '{"text":"hello"}',
    ]);
    await temporal.call(() => startRunWorkflow(temporal.client, temporalConfig, { id, workspaceId, agentId }));
    ctx.status = 201;
    ctx.body = {};
  });
  const app = new Koa();
  app.use(router.routes());
  app.listen(config.port, '127.0.0.1', () => console.log(`baseline listening on ${config.port}`));
  // An exit of its own on SIGTERM, so `--cpu-prof` writes the process's profile (a signal's default does not).
  process.once('SIGTERM', () => process.exit(0));
}

main().catch((err) => {
  console.error('baseline server failed:', err);
  process.exit(1);
});
