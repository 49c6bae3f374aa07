/**
 * CPU time per `GET /v1/runs/{id}` (API key caller) of the API process, and of the bare Koa routes of
 * bench/baseline/server.ts (`/runs/:id`, the one `select` through `pg`; `/noop`), measured from the
 * process's own utime + stime (/proc/<pid>/stat, every thread of it) before and after a fixed number of
 * requests. Unlike throughput, this holds on a shared machine: other work delays our requests but does not
 * add to our process's CPU time. Linux only. Not part of the suite (jest's roots are test/); run it with
 *   SVC_SKIP_INSTALL=1 npm test -- --roots '<rootDir>/bench' --testMatch '<rootDir>/bench/cpuPerRequest.ts'
 * It uses the PostgreSQL and Temporal that `npm test` starts. Environment (defaults):
 *   CPU_REQUESTS=20000 CPU_CONNECTIONS=10 CPU_ROUNDS=3   requests per round, connections, rounds per target
 *   CPU_TARGETS=get,select,noop   what to measure; also create, start, start-durable (case 1's three shapes)
 *   CPU_CREATES=3000    requests per round of those three (each starts a workflow)
 *   CPU_PROFILE=<dir>   the API and bare servers also write V8 CPU profiles under <dir>/api and <dir>/baseline
 *                       when they stop (`--cpu-prof`; the largest file is the main thread's; open it in
 *                       Chrome DevTools or speedscope)
 * The API runs as `node --import tsx api/main.ts` (no tsx wrapper, so the pid is the server's), LOG_LEVEL
 * info, its log into .data/cpu/api.log: one access log line per request, as in production and the bench.
 * Next to the server's CPU it reports PostgreSQL's (the test cluster's postmaster and every process it
 * forked: a backend's CPU lives in its own process) and the Temporal server's, since all share the machine's
 * cores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../platform/config';
import { initOrm, type Orm } from '../db/orm';
import { createAgent, createWorkspace, KeyPool } from '../test/helpers/live/accounts';
import { readPid, statTimes, TICK_MS } from './lib/cpu';
import { expectStatus } from '../test/helpers/live/http';
import { freePort } from './lib/ports';

const ROOT = path.resolve(__dirname, '..');
const LOG_DIR = path.join(ROOT, '.data/cpu');
const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);
const REQUESTS = num('CPU_REQUESTS', 20_000);
const CONNECTIONS = num('CPU_CONNECTIONS', 10);
const ROUNDS = num('CPU_ROUNDS', 3);
const CREATES = num('CPU_CREATES', 3000);
const TARGETS = new Set((process.env.CPU_TARGETS ?? 'get,select,noop').split(','));
const DATA_DIR = path.resolve(ROOT, process.env.SVC_DATA_DIR ?? '.data/test');
const POSTMASTER_PID = path.resolve(DATA_DIR, 'pg/postmaster.pid');

/**
 * The test cluster's CPU time (µs): the postmaster's, its children's (backends, background workers), and
 * that of children that exited and were waited for (cutime + cstime of the postmaster).
 */
function postgresMicros(): number {
  const postmaster = Number(fs.readFileSync(POSTMASTER_PID, 'utf8').split('\n')[0].trim());
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fields: string[];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    } catch {
      continue; // ended meanwhile
    }
    const pid = Number(entry);
    if (pid === postmaster) total += Number(fields[13]) + Number(fields[14]);
    if (pid === postmaster || Number(fields[1]) === postmaster) total += Number(fields[11]) + Number(fields[12]);
  }
  return total * TICK_MS * 1000;
}

/** A process's CPU time, all its threads, and of its main (JavaScript) thread alone. */
function cpuMicros(pid: number): { user: number; system: number; main: number } {
  const main = statTimes(`/proc/${pid}/task/${pid}/stat`);
  return { ...statTimes(`/proc/${pid}/stat`), main: main.user + main.system };
}

function start(name: string, script: string, env: Record<string, string>, extraArgs: string[] = []): ChildProcess {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const fd = fs.openSync(path.join(LOG_DIR, `${name}.log`), 'w');
  const child = spawn(process.execPath, [...extraArgs, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  return child;
}

async function waitOk(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited (${child.exitCode})`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** What a target sends: a GET unless `body` (a POST of it, as JSON), with per-request headers. */
interface Shape {
  body?: string;
  headers?: () => Record<string, string>;
}

/** `amount` requests over `connections` connections; returns the statuses seen. */
function fire(url: string, amount: number, { body, headers }: Shape = {}): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        amount,
        timeout: 30,
        ...(body ? { method: 'POST' as const, body, headers: { 'content-type': 'application/json' } } : {}),
        requests: headers
          ? [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...headers() } }) }]
          : undefined,
      },
      (err) => (err ? reject(err) : resolve(statuses)),
    );
    instance.on('response', (_c: unknown, status: number) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}

/** The test environment's Temporal server (scripts/temporal.sh's pid file), whose CPU a create shares. */
function temporalPid(): number | undefined {
  const pid = readPid(path.resolve(DATA_DIR, 'temporal.pid'));
  return pid !== undefined && fs.existsSync(`/proc/${pid}/stat`) ? pid : undefined;
}

const temporalMicros = (pid: number | undefined) => {
  if (pid === undefined) return 0;
  const t = statTimes(`/proc/${pid}/stat`);
  return t.user + t.system;
};

/**
 * Warms up, then ROUNDS rounds of `requests` requests: the process's CPU µs per request of each round, and
 * PostgreSQL's and Temporal's in the same window.
 */
async function measure(label: string, pid: number, url: string, shape: Shape = {}, requests = REQUESTS) {
  await fire(url, Math.min(requests, 5000), shape);
  const rounds: number[] = [];
  const pgRounds: number[] = [];
  const temporalRounds: number[] = [];
  const temporal = temporalPid();
  for (let i = 0; i < ROUNDS; i++) {
    const before = cpuMicros(pid);
    const pgBefore = postgresMicros();
    const temporalBefore = temporalMicros(temporal);
    const t0 = Date.now();
    const statuses = await fire(url, requests, shape);
    const after = cpuMicros(pid);
    const pg = (postgresMicros() - pgBefore) / requests;
    const tp = (temporalMicros(temporal) - temporalBefore) / requests;
    pgRounds.push(pg);
    temporalRounds.push(tp);
    const user = (after.user - before.user) / requests;
    const system = (after.system - before.system) / requests;
    const main = (after.main - before.main) / requests;
    const us = user + system;
    rounds.push(us);
    console.log(
      `${label}: ${us.toFixed(1)} µs CPU/request (user ${user.toFixed(1)}, system ${system.toFixed(1)}, main thread ${main.toFixed(1)}; PostgreSQL ${pg.toFixed(1)}; Temporal ${tp.toFixed(1)}; ${((requests * 1000) / (Date.now() - t0)).toFixed(0)}/s wall, statuses ${JSON.stringify(statuses)})`,
    );
  }
  return {
    label,
    rounds,
    median: median(rounds),
    pgRounds,
    pgMedian: median(pgRounds),
    temporalMedian: median(temporalRounds),
  };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

describe('CPU per request', () => {
  let orm: Orm;
  let api: ChildProcess;
  let baseline: ChildProcess;
  let apiUrl: string;
  let baselineUrl: string;

  beforeAll(async () => {
    const config = loadConfig(process.env);
    const stamp = randomUUID().slice(0, 8);
    const apiPort = await freePort(4700);
    const baselinePort = await freePort(apiPort + 1);
    const profile = process.env.CPU_PROFILE;
    const profileArgs = (name: string) =>
      profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile, name)}`] : [];
    api = start(
      'api',
      'api/main.ts',
      { PORT: String(apiPort), HOST: '127.0.0.1', LOG_LEVEL: 'info', TEMPORAL_TASK_QUEUE: `cpu-idle-${stamp}` },
      profileArgs('api'),
    );
    baseline = start(
      'baseline',
      'bench/baseline/server.ts',
      { PORT: String(baselinePort), LOG_LEVEL: 'info', BENCH_IDLE_QUEUE: `cpu-idle-${stamp}` },
      profileArgs('baseline'),
    );
    apiUrl = `http://127.0.0.1:${apiPort}`;
    baselineUrl = `http://127.0.0.1:${baselinePort}`;
    await Promise.all([waitOk(`${apiUrl}/healthz`, api), waitOk(`${baselineUrl}/noop`, baseline)]);
    orm = await initOrm(config.databaseUrl, 2);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([api && stop(api), baseline && stop(baseline)]);
    // the baseline server's own tables: the test database must keep exactly the migrated schema
    // (test/architecture/schema.test.ts)
    await orm?.em.getConnection().execute('drop table if exists bench_baseline_runs, bench_baseline_deliveries');
    await orm?.close(true);
  });

  it('measures', async () => {
    const ws = await createWorkspace(apiUrl, orm);
    const pool = new KeyPool(orm, ws.id);
    // keys enough (each for 1,000 requests) that the per-key rate limit never answers 429
    await pool.ensure(
      (ROUNDS + 1) * ((TARGETS.has('get') ? REQUESTS : 0) + (TARGETS.has('create') ? CREATES : 0)) + 10,
    );
    const agentId = await createAgent(apiUrl, pool.next());
    // no worker polls the API's task queue: the run stays queued, its view is read all the same
    const run = await expectStatus(201, `${apiUrl}/v1/runs`, {
      headers: { authorization: pool.next() },
      json: { agentId, input: { text: 'read me' } },
    });
    // Case 1's three shapes: a create, and the bare routes making the same workflow start (after the run's
    // one durable commit for start-durable), each on a task queue no worker polls.
    const body = JSON.stringify({ agentId, input: { text: 'hello' } });
    const key = () => ({ authorization: pool.next() });
    const targets: Record<string, () => ReturnType<typeof measure>> = {
      get: () => measure('GET /v1/runs/{id}', api.pid!, `${apiUrl}/v1/runs/${run.id}`, { headers: key }),
      select: () => measure('bare select /runs/:id', baseline.pid!, `${baselineUrl}/runs/${run.id}`),
      noop: () => measure('bare /noop', baseline.pid!, `${baselineUrl}/noop`),
      create: () => measure('POST /v1/runs', api.pid!, `${apiUrl}/v1/runs`, { body, headers: key }, CREATES),
      start: () => measure('bare POST /start', baseline.pid!, `${baselineUrl}/start`, { body }, CREATES),
      'start-durable': () =>
        measure('bare POST /start-durable', baseline.pid!, `${baselineUrl}/start-durable`, { body }, CREATES),
    };
    const results = [];
    // in the order CPU_TARGETS names them
    for (const target of TARGETS) {
      if (!targets[target]) throw new Error(`CPU_TARGETS: no target ${target}`);
      results.push(await targets[target]());
    }
    console.log(
      results
        .map(
          (r) =>
            `${r.label}: median ${r.median.toFixed(1)} µs CPU/request, PostgreSQL ${r.pgMedian.toFixed(1)}, ` +
            `Temporal ${r.temporalMedian.toFixed(1)} ` +
            `(rounds ${r.rounds.map((x) => x.toFixed(1)).join(', ')}; PostgreSQL ${r.pgRounds.map((x) => x.toFixed(1)).join(', ')})`,
        )
        .join('\n'),
    );
  }, 600_000);
});
