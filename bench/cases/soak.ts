import { createAgent, createWorkspace, KeyPool } from '../../test/helpers/live/accounts';
import { sleep, type BenchContext, type CaseResult } from '../lib/context';
import { expectStatus, request, RunEventStream, waitForTerminal, type SseEvent } from '../../test/helpers/live/http';
import { measureHttp, type HttpResult } from '../lib/load';
import { nowMs, OpLog, openLoop } from '../lib/openLoop';
import { RssSampler } from '../lib/rss';
import { Slots } from '../lib/slots';
import { soakReport, type SoakOp } from '../lib/soakReport';
import { startReceivers } from '../lib/receivers';

const num = (name: string, def: number) => (process.env[name] ? Number(process.env[name]) : def);

/** Arrivals per kind, out of every ten: webhook deliveries follow from the runs that succeed. */
export const DEFAULT_MIX = 'create=2,gate=1,read=7';
type Arrival = 'create' | 'gate' | 'read';
/** Requests one arrival sends (the gate: its run, its event stream, the answer), for the key pool. */
const REQUESTS: Record<Arrival, number> = { create: 1, gate: 3, read: 1 };

/** `create=2,gate=1,read=7` → one cycle of arrivals, each kind spread evenly over it. */
export function parseMix(spec: string): Arrival[] {
  const slots: Array<{ kind: Arrival; pos: number }> = [];
  for (const part of spec.split(',').filter(Boolean)) {
    const [kind, weight] = part.split('=');
    if (!(kind in REQUESTS) || !(Number(weight) >= 0)) throw new Error(`BENCH_SOAK_MIX: bad part ${part}`);
    for (let i = 0; i < Number(weight); i++) slots.push({ kind: kind as Arrival, pos: (i + 0.5) / Number(weight) });
  }
  if (slots.length === 0) throw new Error('BENCH_SOAK_MIX names no arrivals');
  return slots.sort((a, b) => a.pos - b.pos).map((s) => s.kind);
}

/** Half of case 1's create throughput: from its result in this process, else measured briefly as it does. */
export async function soakRate(ctx: BenchContext): Promise<{ rate: number; source: string; createRps?: number }> {
  if (process.env.BENCH_SOAK_RATE) return { rate: num('BENCH_SOAK_RATE', 0), source: 'BENCH_SOAK_RATE' };
  const earlier = ctx.earlier.find((r) => r.title === 'create')?.data.service as HttpResult | undefined;
  if (earlier?.rps) return { rate: earlier.rps / 2, source: 'half of case 1', createRps: earlier.rps };
  await ctx.pool.ensure(4000 * 7);
  const measured = await measureHttp({
    url: `${ctx.admissionUrl}/v1/runs`,
    method: 'POST',
    body: JSON.stringify({ agentId: ctx.echoAgentId, input: { text: 'hello' } }),
    perRequestHeaders: () => ({ authorization: ctx.pool.next() }),
    connections: ctx.connections,
    seconds: 5,
    warmupSeconds: 2,
  });
  return { rate: measured.rps / 2, source: 'half of create throughput measured for 5 s', createRps: measured.rps };
}

/** The soak's knobs (bench/README.md, case 10), shared by case 10b. */
export async function soakSettings(ctx: BenchContext, minutes: number) {
  const warmupSeconds = num('BENCH_SOAK_WARMUP_SECONDS', 30);
  const drainSeconds = num('BENCH_SOAK_DRAIN_SECONDS', 60);
  const mixSpec = process.env.BENCH_SOAK_MIX ?? DEFAULT_MIX;
  const mix = parseMix(mixSpec);
  const { rate, source, createRps } = await soakRate(ctx);
  if (!(rate > 0)) throw new Error(`soak: no positive rate (${source})`);
  return {
    minutes,
    warmupSeconds,
    drainSeconds,
    mixSpec,
    mix,
    rate,
    source,
    createRps,
    seconds: warmupSeconds + minutes * 60,
  };
}

const statusIs = (s: string) => (e: SseEvent) => e.event === 'run.status' && e.data?.status === s;

/**
 * Soak: minutes of mixed open-loop load on one workspace (echo runs created, runs that stop at a
 * human gate and get answered, `GET /v1/runs/{id}`, and a `run.succeeded` webhook delivered to a
 * receiver on 127.0.0.1 for every run that succeeds), while the RSS of the API and the worker is
 * sampled. Compares the first minute after the warm-up with the last one (bench/README.md).
 */
export async function soakCase(ctx: BenchContext): Promise<CaseResult> {
  const { minutes, warmupSeconds, drainSeconds, mixSpec, mix, rate, source, createRps, seconds } = await soakSettings(
    ctx,
    num('BENCH_SOAK_MINUTES', 10),
  );
  console.error(`  soak: ${rate.toFixed(1)} arrivals/s (${source}), ${mixSpec}, ${warmupSeconds} s + ${minutes} min`);

  const ws = await createWorkspace(ctx.apiUrl, ctx.orm);
  const pool = new KeyPool(ctx.orm, ws.id);
  const perArrival = mix.reduce((n, kind) => n + REQUESTS[kind], 0) / mix.length;
  await pool.ensure(Math.ceil(rate * seconds * perArrival * 1.2) + 1000);
  const auth = () => ({ authorization: pool.next() });
  const echoAgentId = await createAgent(ctx.apiUrl, pool.next());
  const scriptedAgentId = await createAgent(ctx.apiUrl, pool.next(), { presetId: 'scripted' });
  const receivers = await startReceivers();
  await expectStatus(201, `${ctx.apiUrl}/v1/webhooks`, {
    headers: auth(),
    json: { url: receivers.url(0), events: ['run.succeeded'], secret: 'bench-secret-0123456789' },
  });

  const logs: Record<SoakOp, OpLog> = {
    create: new OpLog(),
    run: new OpLog(),
    gate: new OpLog(),
    read: new OpLog(),
    webhook: new OpLog(),
  };
  /** Every run the load created → when its arrival was due, and whether it is an echo run. */
  const runs = new Map<string, { dueAt: number; echo: boolean }>();
  const recent: string[] = [];

  const createRun = async (dueAt: number) => {
    const res = await request(`${ctx.apiUrl}/v1/runs`, {
      headers: auth(),
      json: { agentId: echoAgentId, input: { text: 'soak' } },
    });
    if (res.status !== 201) return logs.create.fail(dueAt, new Error(`POST /v1/runs → ${res.status}`));
    logs.create.add(dueAt, nowMs() - dueAt);
    runs.set(res.body.id, { dueAt, echo: true });
    recent.push(res.body.id);
    if (recent.length > 200) recent.shift();
  };
  // something to read before the first create of the load answers
  const seed = await expectStatus(201, `${ctx.apiUrl}/v1/runs`, {
    headers: auth(),
    json: { agentId: echoAgentId, input: { text: 'soak' } },
  });
  await waitForTerminal(ctx.apiUrl, seed.id, auth());
  recent.push(seed.id);
  const read = async (dueAt: number) => {
    const id = recent[Math.floor(Math.random() * recent.length)];
    const res = await request(`${ctx.apiUrl}/v1/runs/${id}`, { headers: auth() });
    if (res.status !== 200) return logs.read.fail(dueAt, new Error(`GET /v1/runs/${id} → ${res.status}`));
    logs.read.add(dueAt, nowMs() - dueAt);
  };
  // two below the cap: a stream just closed here may still count at the API for a moment
  const streams = new Slots(Math.max(1, num('SVC_MAX_STREAMS', 20) - 2));
  const gate = async (dueAt: number) => {
    const res = await request(`${ctx.apiUrl}/v1/runs`, {
      headers: auth(),
      json: { agentId: scriptedAgentId, input: { script: [{ ask: 'approve?' }, { final: { ok: true } }] } },
    });
    if (res.status !== 201) throw new Error(`POST /v1/runs (gate) → ${res.status}`);
    runs.set(res.body.id, { dueAt, echo: false });
    // The stream replays the run's events from its start, so one opened late still sees the question.
    await streams.acquire();
    let stream: RunEventStream | undefined;
    try {
      stream = await RunEventStream.open(ctx.apiUrl, res.body.id, auth());
      await stream.next(statusIs('needs_input'));
      const t0 = nowMs();
      await expectStatus(202, `${ctx.apiUrl}/v1/runs/${res.body.id}/input`, {
        headers: auth(),
        json: { answer: 'yes' },
      });
      await stream.next(statusIs('running'));
      // that it then ends `succeeded` is checked in the database after the load, as for echo runs
      logs.gate.add(dueAt, nowMs() - t0);
    } finally {
      stream?.close();
      // the API frees the slot once it sees the stream end: give it a moment before the next one opens
      setTimeout(() => streams.release(), 50);
    }
  };
  const arrivals: Record<Arrival, (dueAt: number) => Promise<void>> = {
    create: createRun,
    read,
    gate: (dueAt) => gate(dueAt).catch((err) => logs.gate.fail(dueAt, err)),
  };

  const sampler = new RssSampler(
    { api: ctx.processes.api.child.pid!, worker: ctx.processes.worker.child.pid! },
    num('BENCH_SOAK_SAMPLE_SECONDS', 5) * 1000,
  );
  sampler.start();
  const progress = setInterval(() => {
    // runs and deliveries are judged after the load, from the database; here only what is known so far
    const counts = (['create', 'gate', 'read'] as const).map(
      (op) => `${op} ${logs[op].samples.length}/${logs[op].errors}`,
    );
    console.error(`  soak: ${counts.join(', ')} (done/errors), ${receivers.received()} deliveries received`);
  }, 30_000);
  const loop = await openLoop({
    rate,
    seconds,
    operation: (k, dueAt) =>
      arrivals[mix[k % mix.length]](dueAt).catch((err) => logs[mix[k % mix.length]].fail(dueAt, err)),
  }).finally(() => clearInterval(progress));

  // Every run created must end `succeeded` and every success be delivered: wait for the stragglers.
  const conn = ctx.orm.em.fork().getConnection();
  const deadline = Date.now() + drainSeconds * 1000;
  let rows: Array<{ id: string; status: string; completed_at: Date | null }> = [];
  for (;;) {
    rows = await conn.execute(`select id, status, completed_at from runs where workspace_id = ?`, [ws.id]);
    const open = rows.filter((r) => runs.has(r.id) && !['succeeded', 'failed', 'cancelled'].includes(r.status));
    const undelivered = rows.filter(
      (r) => runs.has(r.id) && r.status === 'succeeded' && !receivers.firstAttempt.has(`0:${r.id}`),
    );
    if ((open.length === 0 && undelivered.length === 0) || Date.now() > deadline) break;
    await sleep(1000);
  }
  sampler.stop();
  await receivers.close();
  const seen = new Set<string>();
  for (const row of rows) {
    const run = runs.get(row.id);
    if (!run) continue;
    seen.add(row.id);
    const completedAt = row.completed_at ? new Date(row.completed_at).getTime() : NaN;
    if (run.echo && row.status === 'succeeded') logs.run.add(run.dueAt, completedAt - run.dueAt);
    if (row.status !== 'succeeded') {
      const what = run.echo ? 'echo run' : 'gate run';
      logs[run.echo ? 'run' : 'gate'].fail(run.dueAt, new Error(`${what} ${row.id} is ${row.status}, not succeeded`));
      continue;
    }
    const arrived = receivers.firstAttempt.get(`0:${row.id}`);
    if (arrived === undefined)
      logs.webhook.fail(
        run.dueAt,
        new Error(`run.succeeded of ${row.id} not delivered ${drainSeconds} s after the load`),
      );
    else logs.webhook.add(run.dueAt, arrived - completedAt);
  }
  for (const [id, run] of runs) {
    if (!seen.has(id)) logs[run.echo ? 'run' : 'gate'].fail(run.dueAt, new Error(`run ${id} not in the database`));
  }

  return soakReport({
    settings: { minutes, warmupSeconds, rate, rateSource: source, createRps, mix: mixSpec },
    loop,
    logs,
    rss: sampler.samples,
    overdrawnKeyRequests: pool.overdrawn,
    streamWaits: streams.waits,
  });
}
