import fs from 'node:fs';
import path from 'node:path';
import { ALL_SCOPES, createKey, createWorkspace } from '../../test/helpers/live/accounts';
import type { BenchContext, CaseResult } from '../lib/context';
import { sleep } from '../lib/context';
import { readPid, treeCpu } from '../lib/cpu';
import { startReceivers, type Receivers } from '../lib/receivers';
import { type Account, type Kind, KINDS } from '../lib/runKinds';
import { fmt, table } from '../lib/stats';

/**
 * Case 12 (opt-in, `BENCH_CASES=run-cost`): what one run of each kind costs, for docs/capacity.md. Each kind runs
 * BENCH_COST_RUNS times (BENCH_COST_CONCURRENCY at once) in a workspace of its own, after a warm-up, and is
 * measured per run: CPU ms of the API process, the worker process, the Temporal server and PostgreSQL (each
 * process tree's utime + stime from /proc, less its idle rate measured just before), rows inserted, updated and
 * deleted (`pg_stat_user_tables`), WAL bytes and database growth, Temporal's SQLite file growth, and the
 * workflows and history events the workspace's executions have (Temporal's visibility, `SvcWorkspaceId`).
 * CPU time, not wall time: the machine is shared, and other work delays our runs without adding to our CPU.
 */

const RUNS = Number(process.env.BENCH_COST_RUNS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_COST_CONCURRENCY ?? 4);
const WARMUP = 10;
/** PostgreSQL backends flush their table counters at most once a second, and idle ones after 10 s. */
const STATS_FLUSH_MS = 11_000;

interface Sample {
  at: number;
  cpu: Record<'api' | 'worker' | 'temporal' | 'postgres', number>;
  ins: number;
  upd: number;
  del: number;
  commits: number;
  syncs: number;
  wal: string;
  dbBytes: number;
  temporalBytes: number;
}

async function sample(ctx: BenchContext, dataDir: string): Promise<Sample> {
  const conn = ctx.orm.em.fork().getConnection();
  const [row] = await conn.execute<Array<Record<string, string>>>(
    `select sum(n_tup_ins)::text as ins, sum(n_tup_upd)::text as upd, sum(n_tup_del)::text as del,
            pg_current_wal_lsn()::text as wal, pg_database_size(current_database())::text as db,
            (select xact_commit::text from pg_stat_database where datname = current_database()) as commits,
            (select wal_sync::text from pg_stat_wal) as syncs
       from pg_stat_user_tables`,
  );
  const tree = (pid: number | undefined) => (pid === undefined ? 0 : treeCpu([pid]));
  const temporalBytes = fs
    .readdirSync(dataDir)
    .filter((f) => f.startsWith('temporal.db'))
    .reduce((sum, f) => sum + fs.statSync(path.join(dataDir, f)).size, 0);
  return {
    at: performance.now(),
    cpu: {
      api: tree(ctx.processes.api.child.pid),
      worker: tree(ctx.processes.worker.child.pid),
      temporal: tree(readPid(path.join(dataDir, 'temporal.pid'))),
      postgres: tree(readPid(path.join(dataDir, 'pg/postmaster.pid'))),
    },
    ins: Number(row.ins),
    upd: Number(row.upd),
    del: Number(row.del),
    commits: Number(row.commits),
    syncs: Number(row.syncs),
    wal: row.wal,
    dbBytes: Number(row.db),
    temporalBytes,
  };
}

/** `units` units of work, CONCURRENCY at a time. */
async function drive(units: number, unit: (slot: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, slot) => {
      while (next < units) {
        next++;
        await unit(slot);
      }
    }),
  );
}

/** Workflows of the workspace and their history events, from Temporal's visibility. */
async function histories(ctx: BenchContext, workspaceId: string) {
  let workflows = 0;
  let events = 0;
  for await (const wf of ctx.client.workflow.list({ query: `SvcWorkspaceId = '${workspaceId}'` })) {
    workflows++;
    // an open execution's visibility record lags its history (a conversation stays open between turns)
    events +=
      wf.status.name === 'RUNNING'
        ? (await ctx.client.workflow.getHandle(wf.workflowId, wf.runId).describe()).historyLength
        : wf.historyLength;
  }
  return { workflows, events };
}

async function measureKind(ctx: BenchContext, kind: Kind, receivers: Receivers, dataDir: string) {
  const created = await createWorkspace(ctx.apiUrl, ctx.orm);
  // its own keys, each under the scale plan's rate limit; flows need their own scope
  const keys = await Promise.all(
    Array.from({ length: 8 }, () => createKey(ctx.orm, created.id, [...ALL_SCOPES, 'flows:read', 'flows:manage'])),
  );
  let k = 0;
  const ws: Account = { id: created.id, auth: () => ({ authorization: keys[k++ % keys.length] }) };
  const unit = await kind.setup(ctx, ws, receivers);
  await drive(WARMUP, unit);
  // visibility is eventually consistent: let it catch up with the warm-up's last runs
  await sleep(2000);
  const before = await histories(ctx, ws.id);
  // the idle rate of every process, subtracted below: Temporal's timers and pollers, the worker's long polls
  const idleStart = await sample(ctx, dataDir);
  await sleep(STATS_FLUSH_MS);
  const start = await sample(ctx, dataDir);
  await drive(RUNS, unit);
  const end = await sample(ctx, dataDir);
  await sleep(STATS_FLUSH_MS);
  const flushed = await sample(ctx, dataDir);
  const conn = ctx.orm.em.fork().getConnection();
  const [{ wal }] = await conn.execute<Array<{ wal: string }>>(`select pg_wal_lsn_diff(?, ?)::text as wal`, [
    flushed.wal,
    start.wal,
  ]);
  const after = await histories(ctx, ws.id);
  const windowMs = end.at - start.at;
  const cpu = Object.fromEntries(
    (['api', 'worker', 'temporal', 'postgres'] as const).map((p) => {
      const idleRate = (start.cpu[p] - idleStart.cpu[p]) / (start.at - idleStart.at);
      const raw = end.cpu[p] - start.cpu[p];
      return [
        p,
        { perRun: Math.max(0, raw - idleRate * windowMs) / RUNS, rawPerRun: raw / RUNS, idlePct: idleRate * 100 },
      ];
    }),
  ) as Record<'api' | 'worker' | 'temporal' | 'postgres', { perRun: number; rawPerRun: number; idlePct: number }>;
  return {
    kind: kind.name,
    what: kind.what,
    runs: RUNS,
    concurrency: CONCURRENCY,
    wallSeconds: windowMs / 1000,
    cpuMs: cpu,
    rowsInserted: (flushed.ins - start.ins) / RUNS,
    rowsUpdated: (flushed.upd - start.upd) / RUNS,
    rowsDeleted: (flushed.del - start.del) / RUNS,
    // transactions committed (reads included), and WAL flushes to disk: the write IOPS a run costs
    commits: (flushed.commits - start.commits) / RUNS,
    walSyncs: (flushed.syncs - start.syncs) / RUNS,
    walBytes: Number(wal) / RUNS,
    dbBytes: (flushed.dbBytes - start.dbBytes) / RUNS,
    temporalDbBytes: (flushed.temporalBytes - start.temporalBytes) / RUNS,
    workflowsPerRun: (after.workflows - before.workflows) / RUNS,
    historyEventsPerRun: (after.events - before.events) / RUNS,
  };
}

export async function runCostCase(ctx: BenchContext): Promise<CaseResult> {
  const dataDir = path.resolve(process.env.SVC_DATA_DIR ?? '.data/bench');
  const receivers = await startReceivers();
  const only = process.env.BENCH_COST_KINDS?.split(',');
  const results = [];
  const failures: string[] = [];
  try {
    for (const kind of KINDS.filter((k) => !only || only.includes(k.name))) {
      console.error(`[bench] run-cost: ${kind.name}`);
      try {
        results.push(await measureKind(ctx, kind, receivers, dataDir));
      } catch (err) {
        // one kind's failure is reported and the others still measured
        failures.push(`- ${kind.name} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await receivers.close();
  }
  const rows = results.map((r) => [
    r.kind,
    fmt(r.cpuMs.api.perRun, 2),
    fmt(r.cpuMs.worker.perRun, 2),
    fmt(r.cpuMs.temporal.perRun, 2),
    fmt(r.cpuMs.postgres.perRun, 2),
    fmt(r.cpuMs.api.perRun + r.cpuMs.worker.perRun + r.cpuMs.temporal.perRun + r.cpuMs.postgres.perRun, 2),
    `${fmt(r.rowsInserted, 1)} / ${fmt(r.rowsUpdated, 1)} / ${fmt(r.rowsDeleted, 1)}`,
    `${fmt(r.commits, 1)} / ${fmt(r.walSyncs, 1)}`,
    fmt(r.walBytes / 1024, 1),
    fmt(r.dbBytes / 1024, 1),
    fmt(r.temporalDbBytes / 1024, 1),
    `${fmt(r.workflowsPerRun, 2)} / ${fmt(r.historyEventsPerRun, 1)}`,
  ]);
  const markdown = [
    `### 12. Cost of one run, by kind (${RUNS} each, ${CONCURRENCY} at once; CPU less each process's idle rate)`,
    '',
    table(
      [
        'kind',
        'API ms',
        'worker ms',
        'Temporal ms',
        'PostgreSQL ms',
        'CPU ms in all',
        'rows ins / upd / del',
        'commits / WAL syncs',
        'WAL KiB',
        'db growth KiB',
        'Temporal db KiB',
        'workflows / history events',
      ],
      rows,
    ),
    '',
    ...results.map((r) => `- ${r.kind}: ${r.what}; ${fmt(r.wallSeconds, 1)} s wall.`),
    ...failures,
  ].join('\n');
  return { title: 'run-cost', markdown, data: { kinds: results, failures } };
}
