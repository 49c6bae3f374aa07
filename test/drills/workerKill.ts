import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectStatus } from '../helpers/live/http';
import { startReceiver, type Received } from '../helpers/receiver';
import {
  Checks,
  createRun,
  drillWorkspace,
  listRuns,
  scriptedAgent,
  sleep,
  startWorker,
  subscribe,
  TERMINAL,
  waitForRuns,
  type DrillEnv,
} from './lib';

const ALL_KINDS = ['run.succeeded', 'run.failed', 'run.needs_input', 'run.needs_approval', 'run.needs_review'];
const FINAL_KINDS = ['run.succeeded', 'run.failed'];

interface Planned {
  id: string;
  group: string;
  /** The status the run must end in. */
  expect: 'succeeded' | 'failed';
  /** The webhook kinds the run must announce. */
  kinds: string[];
  /** In flight at the kill: the tool path whose call hangs, or the status the run waits in. */
  hangPath?: string;
  waits?: string;
  /** The answer given while no worker runs. */
  answer?: { path: string; body: unknown };
}

/** A tool endpoint whose first call per path hangs (until its worker is dead); later calls answer at once. */
async function slowTool() {
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const first = !seen.has(req.url!);
    seen.add(req.url!);
    if (first) setTimeout(() => res.end('{"late":true}'), 120_000).unref();
    else res.end('{"weather":"sunny"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (p: string) => `${base}/${p}`,
    hangingOn: (p: string) => seen.has(`/${p}`),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const delivered = (received: Received[]) =>
  new Set(
    received.map((r) => {
      const body = JSON.parse(r.raw.toString('utf8'));
      return `${body.run.id} ${body.type}`;
    }),
  );

/**
 * Kill -9 the worker while 50 runs are in flight (tool calls hanging in activities, runs waiting on
 * input, approval and review), answer the waiting ones while no worker runs, start a new worker:
 * every run ends as it should, every webhook kind reaches every matching subscription at least once,
 * and no run is charged twice.
 */
export async function workerKillDrill(env: DrillEnv, checks: Checks): Promise<string> {
  const ws = await drillWorkspace(env);
  const tool = await slowTool();
  const everything = await startReceiver();
  const finals = await startReceiver();
  try {
    await subscribe(env, ws, everything.url, ALL_KINDS);
    await subscribe(env, ws, finals.url, FINAL_KINDS);
    const scripted = await scriptedAgent(env, ws);
    const approver = await scriptedAgent(env, ws, { approval: 'before_output' });
    const reviewer = await scriptedAgent(env, ws, { review: true });
    const [{ balance: before }] = await env.orm.em
      .fork()
      .getConnection()
      .execute('select credit_balance_micros::bigint as balance from workspaces where id = ?', [ws.id]);

    const plan: Planned[] = [];
    const add = async (n: number, agent: string, make: (i: number) => Omit<Planned, 'id'> & { input: unknown }) => {
      for (let i = 0; i < n; i++) {
        const { input, ...rest } = make(i);
        plan.push({ id: (await createRun(env, ws, agent, input)).id, ...rest });
      }
    };
    const toolCall = (p: string) => ({ tool: 'http_request', args: { url: tool.url(p) } });
    await add(10, scripted, (i) => ({
      group: 'tool→final',
      input: { script: [toolCall(`a${i}`), { final: { i } }] },
      hangPath: `a${i}`,
      expect: 'succeeded',
      kinds: ['run.succeeded'],
    }));
    await add(5, scripted, (i) => ({
      group: 'tool→fail',
      input: { script: [toolCall(`e${i}`), { fail: 'scripted failure' }] },
      hangPath: `e${i}`,
      expect: 'failed',
      kinds: ['run.failed'],
    }));
    await add(5, scripted, (i) => ({
      group: 'tool→ask',
      input: { script: [toolCall(`f${i}`), { ask: 'and now?' }] },
      hangPath: `f${i}`,
      expect: 'succeeded',
      kinds: ['run.needs_input', 'run.succeeded'],
    }));
    await add(10, scripted, () => ({
      group: 'needs_input',
      input: { script: [{ ask: 'name?' }, { final: { ok: true } }] },
      waits: 'needs_input',
      expect: 'succeeded',
      kinds: ['run.needs_input', 'run.succeeded'],
      answer: { path: 'input', body: { answer: 'Ada' } },
    }));
    await add(10, approver, (i) => ({
      group: 'needs_approval',
      input: { script: [{ final: { i } }] },
      waits: 'needs_approval',
      expect: i < 8 ? 'succeeded' : 'failed',
      kinds: ['run.needs_approval', i < 8 ? 'run.succeeded' : 'run.failed'],
      answer: { path: 'approve', body: { approved: i < 8 } },
    }));
    await add(10, reviewer, (i) => ({
      group: 'needs_review',
      input: { script: [{ final: { i } }] },
      waits: 'needs_review',
      expect: 'succeeded',
      kinds: ['run.needs_review', 'run.succeeded'],
      answer: { path: 'review', body: { accept: true } },
    }));
    const ids = plan.map((p) => p.id);

    // In flight: every tool call hangs in its activity, every gate waits.
    const inFlight = (runs: Map<string, any>) => ({
      inActivity: plan.filter((p) => p.hangPath && tool.hangingOn(p.hangPath)).length,
      gated: plan.filter((p) => p.waits && runs.get(p.id)?.status === p.waits).length,
    });
    let flight = { inActivity: 0, gated: 0 };
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      flight = inFlight(await listRuns(env, ws));
      if (flight.inActivity === 20 && flight.gated === 30) break;
      await sleep(300);
    }
    const { inActivity, gated } = flight;
    checks.ok(
      inActivity === 20 && gated === 30,
      `not all in flight before the kill: ${inActivity}/20 in a tool call, ${gated}/30 waiting`,
    );

    env.worker.kill9();
    await env.worker.exited;
    // Answers while no worker runs at all: Temporal keeps the signals.
    for (const p of plan) {
      if (p.answer)
        await expectStatus(202, `${env.api.url}/v1/runs/${p.id}/${p.answer.path}`, {
          headers: ws.auth(),
          json: p.answer.body,
        });
    }
    await startWorker(env);
    // The tool→ask runs reach their question on the new worker.
    let runs = await waitForRuns(env, ws, ids, (r) => r.status !== 'running' && r.status !== 'queued', 90_000);
    for (const p of plan.filter((x) => x.group === 'tool→ask')) {
      if (runs.get(p.id)?.status === 'needs_input') {
        await expectStatus(202, `${env.api.url}/v1/runs/${p.id}/input`, { headers: ws.auth(), json: { answer: 'go' } });
      }
    }
    runs = await waitForRuns(env, ws, ids, (r) => TERMINAL.includes(r.status), 90_000);
    const wrong = plan.filter((p) => runs.get(p.id)?.status !== p.expect);
    checks.ok(
      wrong.length === 0,
      `${wrong.length} runs not as expected: ${wrong
        .slice(0, 5)
        .map((p) => `${p.group} ${p.id} is ${runs.get(p.id)?.status} (want ${p.expect})`)
        .join('; ')}`,
    );

    // Webhooks: every kind at least once per matching subscription (deliveries may still be retrying).
    const want = (kinds: (p: Planned) => string[]) => plan.flatMap((p) => kinds(p).map((k) => `${p.id} ${k}`));
    const wantAll = want((p) => p.kinds);
    const wantFinal = want((p) => p.kinds.filter((k) => FINAL_KINDS.includes(k)));
    const hookDeadline = Date.now() + 60_000;
    let missingAll: string[] = [];
    let missingFinal: string[] = [];
    do {
      const gotAll = delivered(everything.received);
      const gotFinal = delivered(finals.received);
      missingAll = wantAll.filter((k) => !gotAll.has(k));
      missingFinal = wantFinal.filter((k) => !gotFinal.has(k));
      if (!missingAll.length && !missingFinal.length) break;
      await sleep(500);
    } while (Date.now() < hookDeadline);
    checks.ok(
      missingAll.length === 0,
      `all-kinds subscription missed ${missingAll.length} events, e.g. ${missingAll.slice(0, 3).join(', ')}`,
    );
    checks.ok(
      missingFinal.length === 0,
      `final-kinds subscription missed ${missingFinal.length} events, e.g. ${missingFinal.slice(0, 3).join(', ')}`,
    );
    const unexpected = [...delivered(finals.received)].filter((k) => !FINAL_KINDS.includes(k.split(' ')[1]));
    checks.ok(
      unexpected.length === 0,
      `final-kinds subscription got kinds it did not subscribe to: ${unexpected.slice(0, 3).join(', ')}`,
    );

    // Charges: one charge row per run (beside its hold and release, docs/api/billing.md), and the balance
    // moved by exactly the sum of the run's ledger rows, which nets to its charge once the hold is released.
    const conn = env.orm.em.fork().getConnection();
    const charges: Array<{ run_id: string; n: number; total: string }> = await conn.execute(
      `select run_id, count(*) filter (where kind = 'charge')::int as n, sum(amount_micros)::bigint as total
       from ledger_entries where run_id in (?) group by run_id having count(*) filter (where kind = 'charge') > 0`,
      [ids],
    );
    const twice = charges.filter((c) => c.n > 1);
    const uncharged = ids.length - charges.length;
    checks.ok(twice.length === 0, `${twice.length} runs charged more than once`);
    checks.ok(uncharged === 0, `${uncharged} finished runs without a charge`);
    const [{ balance: after }] = await conn.execute(
      'select credit_balance_micros::bigint as balance from workspaces where id = ?',
      [ws.id],
    );
    const charged = charges.reduce((s, c) => s + Number(c.total), 0);
    checks.ok(
      Number(after) - Number(before) === charged,
      `balance moved by ${Number(after) - Number(before)} µUSD, charges sum to ${charged}`,
    );

    return `${plan.length - wrong.length}/${plan.length} runs as expected (${inActivity} were in a tool call, ${gated} waiting at the kill); ${wantAll.length + wantFinal.length - missingAll.length - missingFinal.length}/${wantAll.length + wantFinal.length} expected deliveries seen (${everything.received.length + finals.received.length} requests); ${twice.length} double charges`;
  } finally {
    tool.close();
    await everything.close();
    await finals.close();
  }
}
