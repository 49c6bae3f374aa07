import fs from 'node:fs';
import path from 'node:path';
import { ALL_SCOPES, createKey, createWorkspace } from '../../test/helpers/live/accounts';
import type { BenchContext, CaseResult } from '../lib/context';
import { sleep } from '../lib/context';
import { readPid, statTimes, treeCpu } from '../lib/cpu';
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
/**
 * On the real Temporal server (BENCH_TEMPORAL=pg, scripts/temporal-pg.sh) its two processes are measured apart
 * (history, matching and the system worker as "Temporal", the frontend as "Temporal frontend"), its history lives
 * in two databases of the bench's PostgreSQL cluster, and the CPU of the PostgreSQL backends serving those
 * databases is told apart from the service's own ("Temporal's PostgreSQL").
 */
const TEMPORAL_PG = process.env.SVC_TEMPORAL_SERVER === 'pg';
const PROCESSES = ['api', 'worker', 'temporal', 'temporalFrontend', 'postgres', 'temporalPostgres'] as const;
type Process = (typeof PROCESSES)[number];
const CONCURRENCY = Number(process.env.BENCH_COST_CONCURRENCY ?? 4);
const WARMUP = 10;
/** PostgreSQL backends flush their table counters at most once a second, and idle ones after 10 s. */
const STATS_FLUSH_MS = 11_000;

interface Sample {
  at: number;
  cpu: Record<Process, number>;
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
  const tree = (...pids: Array<number | undefined>) => treeCpu(pids.filter((p): p is number => p !== undefined));
  const temporal = TEMPORAL_PG ? await temporalOnPostgres(conn, dataDir) : null;
  const temporalBytes =
    temporal?.bytes ??
    fs
      .readdirSync(dataDir)
      .filter((f) => f.startsWith('temporal.db'))
      .reduce((sum, f) => sum + fs.statSync(path.join(dataDir, f)).size, 0);
  const temporalPostgres = temporal?.backendsCpu ?? 0;
  return {
    at: performance.now(),
    cpu: {
      api: tree(ctx.processes.api.child.pid),
      worker: tree(ctx.processes.worker.child.pid),
      temporal: temporal?.coreCpu ?? tree(readPid(path.join(dataDir, 'temporal.pid'))),
      temporalFrontend: temporal?.frontendCpu ?? 0,
      // the cluster's whole tree, less the backends that serve Temporal's databases
      postgres: tree(readPid(path.join(dataDir, 'pg/postmaster.pid'))) - temporalPostgres,
      temporalPostgres,
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

/**
 * The real Temporal server's share: its two processes' CPU, the CPU of the PostgreSQL backends connected to its
 * databases (its pools keep them open for the whole case), and the size of those databases.
 */
async function temporalOnPostgres(conn: ReturnType<BenchContext['orm']['em']['getConnection']>, dataDir: string) {
  const state = path.join(dataDir, 'temporal-server');
  const rows = await conn.execute<Array<{ pid: number }>>(
    `select pid from pg_stat_activity where datname in ('temporal', 'temporal_visibility')`,
  );
  const [{ bytes }] = await conn.execute<Array<{ bytes: string }>>(
    `select (pg_database_size('temporal') + pg_database_size('temporal_visibility'))::text as bytes`,
  );
  let backendsCpu = 0;
  for (const { pid } of rows) {
    try {
      const t = statTimes(`/proc/${pid}/stat`);
      backendsCpu += (t.user + t.system) / 1000;
    } catch {
      // the backend ended meanwhile
    }
  }
  const cpuOf = (role: string) => {
    const pid = readPid(path.join(state, `${role}.pid`));
    return pid === undefined ? 0 : treeCpu([pid]);
  };
  return { coreCpu: cpuOf('core'), frontendCpu: cpuOf('frontend'), backendsCpu, bytes: Number(bytes) };
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
    PROCESSES.map((p) => {
      const idleRate = (start.cpu[p] - idleStart.cpu[p]) / (start.at - idleStart.at);
      const raw = end.cpu[p] - start.cpu[p];
      return [
        p,
        { perRun: Math.max(0, raw - idleRate * windowMs) / RUNS, rawPerRun: raw / RUNS, idlePct: idleRate * 100 },
      ];
    }),
  ) as Record<Process, { perRun: number; rawPerRun: number; idlePct: number }>;
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
    ...(TEMPORAL_PG ? [fmt(r.cpuMs.temporalFrontend.perRun, 2)] : []),
    fmt(r.cpuMs.postgres.perRun, 2),
    ...(TEMPORAL_PG ? [fmt(r.cpuMs.temporalPostgres.perRun, 2)] : []),
    fmt(
      PROCESSES.reduce((sum, p) => sum + r.cpuMs[p].perRun, 0),
      2,
    ),
    `${fmt(r.rowsInserted, 1)} / ${fmt(r.rowsUpdated, 1)} / ${fmt(r.rowsDeleted, 1)}`,
    `${fmt(r.commits, 1)} / ${fmt(r.walSyncs, 1)}`,
    fmt(r.walBytes / 1024, 1),
    fmt(r.dbBytes / 1024, 1),
    fmt(r.temporalDbBytes / 1024, 1),
    `${fmt(r.workflowsPerRun, 2)} / ${fmt(r.historyEventsPerRun, 1)}`,
  ]);
  const markdown = [
    `### 12. Cost of one run, by kind (${RUNS} each, ${CONCURRENCY} at once; CPU less each process's idle rate; ` +
      `${TEMPORAL_PG ? 'the real Temporal server on PostgreSQL' : "Temporal's dev server on SQLite"})`,
    '',
    table(
      [
        'kind',
        'API ms',
        'worker ms',
        TEMPORAL_PG ? 'Temporal history+matching ms' : 'Temporal ms',
        ...(TEMPORAL_PG ? ['Temporal frontend ms'] : []),
        'PostgreSQL ms',
        ...(TEMPORAL_PG ? ["Temporal's PostgreSQL ms"] : []),
        'CPU ms in all',
        'rows ins / upd / del',
        'commits / WAL syncs',
        TEMPORAL_PG ? "WAL KiB (Temporal's too)" : 'WAL KiB',
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
  return {
    title: 'run-cost',
    markdown,
    data: { temporal: TEMPORAL_PG ? 'postgres' : 'dev-sqlite', kinds: results, failures },
  };
}
