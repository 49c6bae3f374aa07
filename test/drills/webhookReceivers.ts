import { createAgent } from '../helpers/live/accounts';
import { expectStatus, waitForTerminal } from '../helpers/live/http';
import { startReceiver, type Received } from '../helpers/receiver';
import { Checks, deliveries, drillWorkspace, sleep, subscribe, type DrillEnv } from './lib';

const RUNS = 3;
/** A delivery attempt times out after 10 s. A run that is "not delayed" finishes well inside one attempt. */
const ATTEMPT_MS = 10_000;

const runOf = (r: Received) => JSON.parse(r.raw.toString('utf8')).run.id as string;

/**
 * Three misbehaving receivers (one hangs past the timeout, one answers 410, one closes the
 * connection mid-response) and a healthy one, all subscribed to `run.succeeded`: each bad one costs
 * at most 3 attempts per event, the healthy one gets its delivery, and no run waits for any of them.
 */
export async function webhookReceiversDrill(env: DrillEnv, checks: Checks): Promise<string> {
  const ws = await drillWorkspace(env);
  const agentId = await createAgent(env.api.url, ws.pool.next());
  const receivers = {
    hang: await startReceiver(() => undefined),
    gone: await startReceiver((_n, _req, res) => {
      res.statusCode = 410;
      res.end('gone');
    }),
    cut: await startReceiver((_n, _req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    }),
    healthy: await startReceiver(),
  };
  try {
    const subs: Record<string, string> = {};
    for (const [name, r] of Object.entries(receivers)) subs[name] = await subscribe(env, ws, r.url, ['run.succeeded']);

    const completions: number[] = [];
    const ids = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const t0 = Date.now();
        const run = await expectStatus(201, `${env.api.url}/v1/runs`, {
          headers: ws.auth(),
          json: { agentId, input: { i } },
        });
        const done = await waitForTerminal(env.api.url, run.id, ws.auth(), 60_000);
        completions.push(Date.now() - t0);
        checks.ok(done.status === 'succeeded', `run ${run.id} ended ${done.status}`);
        return run.id as string;
      }),
    );
    const slowest = Math.max(...completions);
    checks.ok(
      slowest < ATTEMPT_MS,
      `a run took ${slowest} ms from create to succeeded (one attempt's timeout is ${ATTEMPT_MS} ms)`,
    );

    // Wait until every bad delivery is given up (3 attempts: 10 s + 1 s + 10 s + 2 s + 10 s at most).
    const deadline = Date.now() + 75_000;
    const logs: Record<string, any[]> = {};
    for (;;) {
      for (const [name, id] of Object.entries(subs)) logs[name] = await deliveries(env, ws, id);
      const settled = Object.values(logs).every((l) => l.length === RUNS && l.every((d) => d.status !== 'pending'));
      if (settled || Date.now() > deadline) break;
      await sleep(1000);
    }
    await sleep(3000); // nothing more may arrive after that

    // The run's workflow makes its deliveries (docs/api/webhooks.md#how-it-runs): once they have ended,
    // it has closed as Completed, leaving nothing open in Temporal for a receiver that never answers.
    for (const id of ids) {
      const { status } = await env.client.workflow.getHandle(`run-${id}`).describe();
      checks.ok(status.name === 'COMPLETED', `run ${id}'s workflow is ${status.name} once its deliveries ended`);
    }

    const summary: string[] = [];
    for (const [name, r] of Object.entries(receivers)) {
      const log = logs[name];
      const perRun = ids.map((id) => r.received.filter((x) => runOf(x) === id).length);
      const logged = log.map((d) => d.attempts.length);
      const want = name === 'healthy' ? 'succeeded' : 'failed';
      checks.ok(log.length === RUNS, `${name}: ${log.length} deliveries logged for ${RUNS} runs`);
      checks.ok(
        perRun.every((n) => n >= 1 && n <= 3),
        `${name}: attempts received per run ${JSON.stringify(perRun)} (want 1..3)`,
      );
      checks.ok(
        logged.every((n) => n >= 1 && n <= 3),
        `${name}: attempts logged per delivery ${JSON.stringify(logged)} (want 1..3)`,
      );
      checks.ok(
        log.every((d) => d.status === want),
        `${name}: delivery statuses ${JSON.stringify(log.map((d) => d.status))} (want ${want})`,
      );
      summary.push(`${name} ${perRun.join('/')} attempts → ${[...new Set(log.map((d) => d.status))].join(',')}`);
    }
    return `${RUNS} runs succeeded in ≤ ${slowest} ms; ${summary.join('; ')}`;
  } finally {
    await Promise.all(Object.values(receivers).map((r) => r.close()));
  }
}
