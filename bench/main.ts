import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../platform/config';
import { createTemporal } from '../platform/temporal';
import { initOrm } from '../db/orm';
import { createAgent, createWorkspace, KeyPool } from '../test/helpers/live/accounts';
import type { BenchContext, CaseResult } from './lib/context';
import { cpuSample, cpuShare } from './lib/cpu';
import { expectStatus, waitForTerminal } from '../test/helpers/live/http';
import {
  ROOT,
  spawnTsx,
  startApiProcess,
  startWorkerProcess,
  waitUntilReady,
  httpOk,
} from '../test/helpers/live/processes';
import { createCase } from './cases/create';
import { e2eCase } from './cases/e2e';
import { gateCase } from './cases/gate';
import { readCase } from './cases/read';
import { webhooksCase } from './cases/webhooks';
import { knowledgeCase } from './cases/knowledge';
import { financeCase } from './cases/finance';
import { turnsCase } from './cases/turns';
import { replicasCase } from './cases/replicas';
import { freePort } from './lib/ports';
import { soakCase } from './cases/soak';
import { soakBaselineCase } from './cases/soakBaseline';
import { bigTablesCase } from './cases/bigTables';
import { runCostCase } from './cases/runCost';

/**
 * `npm run bench` (through bench/run.sh, which starts PostgreSQL and Temporal on the bench's own
 * ports and data dir): starts the processes under test, warms up, runs the cases in one go, prints the
 * Markdown tables on stdout and writes the run's numbers to BENCH_OUTPUT (run.sh then judges the targets
 * over its runs, bench/summarize.ts). It measures; it never fails on a number.
 */

const CASES: Record<string, (ctx: BenchContext) => Promise<CaseResult>> = {
  create: createCase,
  e2e: e2eCase,
  gate: gateCase,
  read: readCase,
  webhooks: webhooksCase,
  knowledge: knowledgeCase,
  finance: financeCase,
  turns: turnsCase,
  replicas: replicasCase,
  soak: soakCase,
  soakbase: soakBaselineCase,
  'big-tables': bigTablesCase,
  'run-cost': runCostCase,
};

/** Cases that run only when BENCH_CASES names them: too long for the default run (bench/README.md). */
const OPT_IN = new Set(['soak', 'soakbase', 'big-tables', 'run-cost']);

const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((n) => Number(n.toFixed(2))),
  };
}

async function main(): Promise<void> {
  const defaults = Object.keys(CASES).filter((name) => !OPT_IN.has(name));
  const only = (process.env.BENCH_CASES ?? defaults.join(',')).split(',').filter(Boolean);
  const unknown = only.filter((name) => !CASES[name]);
  if (unknown.length) throw new Error(`no case ${unknown.join(', ')} (cases: ${Object.keys(CASES).join(', ')})`);
  const dataDir = process.env.SVC_DATA_DIR ?? path.join(ROOT, '.data/bench');
  const logDir = path.join(dataDir, 'logs');
  const stamp = Date.now();
  const queues = { runs: `bench-runs-${stamp}`, idle: `bench-idle-${stamp}`, bare: `bench-bare-${stamp}` };
  const shared = {
    // one line per request, as in production, but into a file (see bench/README.md)
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    SVC_ALLOW_PRIVATE_WEBHOOKS: '1',
    // the run-cost case's flow POSTs to a receiver on 127.0.0.1
    SVC_ALLOW_PRIVATE_EGRESS: '1',
    SVC_SIGNUP_RATE_PER_MIN: '10000',
    // case 5 subscribes 100 receivers in one workspace (the default cap is 25), and their first attempts go
    // at once, as the defaults' 25 subscriptions do under 25 slots; fewer slots than subscriptions would queue
    // the fan-out behind its own workspace's fairness cap (bench/README.md, settings)
    SVC_MAX_WEBHOOKS: '100',
    SVC_WEBHOOK_WORKSPACE_SLOTS: '100',
  };
  const started = new Date();
  const machineAtStart = machine();
  console.error(`[bench] machine: ${JSON.stringify(machineAtStart)}`);

  const base = num('BENCH_PORT_BASE', 4310);
  const apiPort = await freePort(base);
  const admissionPort = await freePort(apiPort + 1);
  const baselinePort = await freePort(admissionPort + 1);
  const worker = startWorkerProcess(
    'worker',
    { ...shared, TEMPORAL_TASK_QUEUE: queues.runs, BENCH_BARE_QUEUE: queues.bare },
    logDir,
    'bench/worker.ts',
    'bench worker running',
  );
  const api = startApiProcess('api', apiPort, { ...shared, TEMPORAL_TASK_QUEUE: queues.runs }, logDir);
  const admission = startApiProcess(
    'api-admission',
    admissionPort,
    // its runs stay queued on purpose: its recovery sweep would only retry their starts
    { ...shared, TEMPORAL_TASK_QUEUE: queues.idle, SVC_RECOVERY_SWEEP_SECONDS: '0' },
    logDir,
  );
  const baselineProc = spawnTsx(
    'baseline',
    'bench/baseline/server.ts',
    { ...shared, PORT: String(baselinePort), BENCH_IDLE_QUEUE: queues.idle },
    `${logDir}/baseline.log`,
  );
  const baselineUrl = `http://127.0.0.1:${baselinePort}`;
  await Promise.all([worker, api, admission, waitUntilReady(baselineProc, httpOk(`${baselineUrl}/noop`))]);
  console.error(
    `[bench] API ${(await api).url}, admission API ${(await admission).url}, baseline ${baselineUrl}; logs in ${logDir}`,
  );

  const config = loadConfig();
  const orm = await initOrm(config.databaseUrl, 4);
  const temporal = createTemporal(config.temporal);
  const apiUrl = (await api).url;
  const ws = await createWorkspace(apiUrl, orm);
  const pool = new KeyPool(orm, ws.id);
  await pool.ensure(5000);
  const ctx: BenchContext = {
    apiUrl,
    admissionUrl: (await admission).url,
    baselineUrl,
    orm,
    client: temporal.client,
    bareQueue: queues.bare,
    runsQueue: queues.runs,
    processEnv: shared,
    pool,
    workspaceId: ws.id,
    echoAgentId: await createAgent(apiUrl, pool.next()),
    scriptedAgentId: await createAgent(apiUrl, pool.next(), { presetId: 'scripted', settings: { maxSteps: 50 } }),
    connections: num('BENCH_CONNECTIONS', 10),
    concurrency: num('BENCH_CONCURRENCY', 8),
    seconds: num('BENCH_SECONDS', 10),
    warmupSeconds: num('BENCH_WARMUP_SECONDS', 3),
    logDir,
    processes: { api: await api, worker: await worker },
    earlier: [],
  };

  // Global warm-up: JIT, connection pools, workflow caches of every code path the cases use.
  console.error('[bench] warming up');
  for (let i = 0; i < num('BENCH_WARMUP_RUNS', 20); i++) {
    const run = await expectStatus(201, `${apiUrl}/v1/runs`, {
      headers: { authorization: pool.next() },
      json: { agentId: ctx.echoAgentId, input: { text: 'warm-up' } },
    });
    await waitForTerminal(apiUrl, run.id, { authorization: pool.next() });
  }

  const results = ctx.earlier;
  for (const name of only) {
    const t0 = Date.now();
    console.error(`[bench] case ${name}`);
    const before = cpuSample(dataDir);
    const result = await CASES[name](ctx);
    const cpu = cpuShare(before, cpuSample(dataDir), os.cpus().length);
    if (cpu) {
      // other engineers' test runs share this machine: say how much of it they took meanwhile
      result.data.cpu = cpu;
      result.markdown += `\n\nCPU during this case: the benchmark's processes ${cpu.oursPct} %, other processes ${cpu.foreignPct} % of all cores.`;
    }
    results.push(result);
    console.error(`${result.markdown}\n[bench] case ${name} took ${Math.round((Date.now() - t0) / 1000)} s\n`);
  }

  const output = {
    date: started.toISOString(),
    durationSeconds: Math.round((Date.now() - started.getTime()) / 1000),
    machine: { ...machineAtStart, loadAverageAtEnd: os.loadavg().map((n) => Number(n.toFixed(2))) },
    settings: {
      connections: ctx.connections,
      concurrency: ctx.concurrency,
      seconds: ctx.seconds,
      warmupSeconds: ctx.warmupSeconds,
      keysUsed: pool.size,
      overdrawnKeyRequests: pool.overdrawn,
      temporalDynamicConfig: process.env.BENCH_TEMPORAL_FLAGS ?? '',
      logLevel: shared.LOG_LEVEL,
    },
    cases: Object.fromEntries(results.map((r) => [r.title, r.data])),
  };
  const outFile = process.env.BENCH_OUTPUT ?? path.join(dataDir, 'run.json');
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, `${JSON.stringify(output, null, 2)}\n`);

  console.log(`## svc benchmark — ${started.toISOString()}\n`);
  console.log(
    `Machine: ${output.machine.cpus} × ${output.machine.cpuModel}, ${output.machine.memoryGiB} GiB, ${output.machine.os}, Node ${output.machine.node}. ` +
      `Took ${output.durationSeconds} s. Load average (1/5/15 min) at start ${machineAtStart.loadAverageAtStart.join('/')}, ` +
      `at end ${output.machine.loadAverageAtEnd.join('/')}.\n`,
  );
  for (const r of results) console.log(`${r.markdown}\n`);
  console.error(`[bench] wrote ${path.relative(ROOT, outFile)}`);

  await temporal.close();
  await orm.close(true);
  await Promise.all([(await api).stop(), (await admission).stop(), baselineProc.stop(), (await worker).stop()]);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error('[bench] failed:', err);
    process.exit(1);
  },
);
