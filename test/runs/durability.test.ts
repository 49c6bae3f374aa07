import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { spawnWorker } from '../helpers/processes';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { testTaskQueue } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

// Issue: "kill the worker while a run waits in needs_input and while an activity is running, start a
// new worker, and the run finishes correctly with nothing lost or duplicated. Restarting the API loses nothing."
describe('durability', () => {
  let h: Harness;
  let auth: Record<string, string>;
  let queue: string;
  const workerEnv = () => ({
    DATABASE_URL: h.config.databaseUrl,
    TEMPORAL_ADDRESS: h.config.temporal.address,
    TEMPORAL_TASK_QUEUE: queue,
    SVC_ALLOW_PRIVATE_EGRESS: '1',
  });

  beforeAll(async () => {
    queue = testTaskQueue();
    const base = await startApi();
    const config = { ...base.config, temporal: { ...base.config.temporal, taskQueue: queue } };
    await base.close();
    h = await startApi(config);
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
  });
  afterAll(() => h?.close());

  const history = async (runId: string) => {
    const conn = h.orm.em.fork().getConnection();
    const events: Array<{ status: string }> = await conn.execute(
      `select data->>'status' as status from run_events where run_id = ? and type = 'run.status' order by seq`,
      [runId],
    );
    // a run's ledger rows are its holds, one release and one charge (docs/api/billing.md#the-ledger)
    const charges = await conn.execute(
      `select count(*)::int as n from ledger_entries where run_id = ? and kind = 'charge'`,
      [runId],
    );
    return { statuses: events.map((e) => e.status), charges: charges[0].n };
  };

  it('finishes a run whose worker was killed -9 while it waited in needs_input', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const first = await spawnWorker(workerEnv());
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ ask: 'name?' }, { final: { done: true } }] },
    });
    await waitForStatus(h, auth, run.id, 'needs_input');
    first.kill9();
    // the answer is accepted while no worker runs at all: Temporal keeps the signal
    expect(
      (await h.request(`/v1/runs/${run.id}/input`, { method: 'POST', headers: auth, json: { answer: 'Ada' } })).status,
    ).toBe(202);
    const second = await spawnWorker(workerEnv());
    try {
      const done = await waitForStatus(h, auth, run.id, 'succeeded', 60_000);
      expect(done.output).toEqual({ done: true });
      expect(await history(run.id)).toEqual({
        statuses: ['queued', 'running', 'needs_input', 'running', 'succeeded'],
        charges: 1,
      });
    } finally {
      second.kill9();
    }
  }, 180_000);

  it('finishes a run whose worker was killed -9 in the middle of a tool call, running the call again', async () => {
    let hits = 0;
    const slow = http.createServer((req, res) => {
      hits++;
      // the first call hangs until its worker is dead; the retry is answered at once
      if (hits === 1) setTimeout(() => res.end('late'), 60_000).unref();
      else res.end('{"weather":"sunny"}');
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/weather`;
    try {
      const agent = await createAgent(h, auth, { presetId: 'scripted' });
      const first = await spawnWorker(workerEnv());
      const run = await createRun(h, auth, {
        agentId: agent.id,
        input: { script: [{ tool: 'http_request', args: { url } }, { final: { ok: 1 } }] },
      });
      await pollUntil(30_000, () => hits > 0, Boolean, 'the tool call');
      expect(hits).toBe(1);
      first.kill9();
      const second = await spawnWorker(workerEnv());
      try {
        const done = await waitForStatus(h, auth, run.id, 'succeeded', 90_000);
        expect(done.output).toEqual({ ok: 1 });
        expect(hits).toBe(2);
        const { steps } = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
        expect(steps.map((s: { index: number; type: string; status: string }) => [s.index, s.type, s.status])).toEqual([
          [0, 'model', 'succeeded'],
          [1, 'tool', 'succeeded'],
          [2, 'model', 'succeeded'],
        ]);
        expect(steps[1].detail.result).toContain('sunny');
        expect(await history(run.id)).toEqual({ statuses: ['queued', 'running', 'succeeded'], charges: 1 });
      } finally {
        second.kill9();
      }
    } finally {
      slow.close();
    }
  }, 180_000);

  it('loses nothing when the API restarts between create and answer', async () => {
    const worker = await spawnWorker(workerEnv());
    try {
      const agent = await createAgent(h, auth, { presetId: 'scripted' });
      const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'q?' }] } });
      await h.close();
      h = await startApi(h.config);
      await waitForStatus(h, auth, run.id, 'needs_input');
      expect(
        (await h.request(`/v1/runs/${run.id}/input`, { method: 'POST', headers: auth, json: { answer: 42 } })).status,
      ).toBe(202);
      const done = await waitForStatus(h, auth, run.id, 'succeeded');
      expect(done.output).toEqual({ answers: [42] });
    } finally {
      worker.kill9();
    }
  }, 180_000);
});
