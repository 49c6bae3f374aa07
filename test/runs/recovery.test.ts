import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createModelRegistry } from '../../domain/models/registry';
import { sweepOutbox } from '../../domain/shared/outbox/relay';
import { sweepQueuedRuns } from '../../domain/runs/recovery';
import { sweepStuckRuns } from '../../domain/runs/stuck';
import { requestHash } from '../../domain/shared/idempotency/fingerprint';
import { startRunWorkflow } from '../../domain/runs/workflowStarter';
import { createRunBody } from '../../api/schemas/runs';
import { OutboxEntry } from '../../db/entities/OutboxEntry';
import { Run } from '../../db/entities/Run';
import { initOrm, type Orm } from '../../db/orm';
import { runWorkflowId } from '../../workflows/messages';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startReceiver } from '../helpers/receiver';
import { pollUntil } from '../helpers/poll';
import { startWorker, testTaskQueue, type RunningWorker } from '../helpers/worker';

/**
 * A TCP relay between the worker and PostgreSQL that the test can cut (every connection dropped, new
 * ones refused) and restore on the same port: a database outage seen by the worker alone.
 */
async function startDatabaseRelay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    async cut() {
      await new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      });
    },
    async restore() {
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    },
    close: () => new Promise<void>((r) => (server.listening ? server.close(() => r()) : r())),
  };
}

describe('recovery', () => {
  let h: Harness;
  let auth: Record<string, string>;
  let agentId: string;

  beforeAll(async () => {
    const base = await startApi();
    const config = {
      ...base.config,
      allowPrivateWebhooks: true,
      allowPrivateEgress: true,
      temporal: { ...base.config.temporal, taskQueue: testTaskQueue() },
    };
    await base.close();
    h = await startApi(config);
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write', 'webhooks:manage']));
    agentId = (await createAgent(h, auth, { presetId: 'scripted' })).id;
  }, 60_000);
  afterAll(() => h?.close());

  /**
   * A run row and its outbox row as POST /v1/runs commits them, for a process that died before making
   * the start.
   */
  async function orphanRun(body: { agentId: string; input: Record<string, unknown> }, key?: string) {
    const identity = await h.orm.em
      .fork()
      .getConnection()
      .execute(`select workspace_id from agents where id = ?`, [body.agentId]);
    const run = new Run(identity[0].workspace_id, body.agentId, 1, body.input, {});
    run.idempotencyKey = key ?? null;
    run.requestHash = requestHash(createRunBody.parse(body));
    run.createdAt = new Date(Date.now() - 60_000);
    const start = new OutboxEntry({
      kind: 'start_run',
      runId: run.id,
      workspaceId: run.workspaceId,
      agentId: run.agentId,
      taskQueue: h.config.temporal.taskQueue,
    });
    start.createdAt = run.createdAt;
    await h.orm.em.fork().persist([run, start]).flush();
    return run;
  }

  /** The outbox rows of a run: their kind and whether they are marked done. */
  async function outboxRows(runId: string): Promise<Array<{ kind: string; done: boolean }>> {
    return h.orm.em
      .fork()
      .getConnection()
      .execute(`select kind, done_at is not null as done from outbox where run_id = ? order by created_at`, [runId]);
  }

  describe('with a worker', () => {
    let worker: RunningWorker;
    beforeAll(async () => {
      worker = await startWorker(h.config, h.orm);
    }, 60_000);
    afterAll(() => worker?.stop());

    it('a replayed create starts the workflow of a run that its first request left queued', async () => {
      const key = randomUUID();
      const body = { agentId, input: { script: [{ final: { replayed: true } }] } };
      const run = await orphanRun(body, key);
      const res = await h.request('/v1/runs', {
        method: 'POST',
        headers: { ...auth, 'Idempotency-Key': key },
        json: body,
      });
      expect(res.status).toBe(200);
      expect((await res.json()).id).toBe(run.id);
      const done = await waitForStatus(h, auth, run.id, 'succeeded');
      expect(done.output).toEqual({ replayed: true });
      // a second replay finds the workflow there and starts nothing new
      const again = await h.request('/v1/runs', {
        method: 'POST',
        headers: { ...auth, 'Idempotency-Key': key },
        json: body,
      });
      expect(again.status).toBe(200);
      const { count } = await h.orm.em
        .fork()
        .getConnection()
        .execute(`select count(*)::int from runs where idempotency_key = ?`, [key])
        .then((r) => r[0]);
      expect(count).toBe(1);
    }, 60_000);

    it('the sweep starts the workflow of a run left queued without one, and leaves younger runs alone', async () => {
      const old = await orphanRun({ agentId, input: { script: [{ final: { swept: true } }] } });
      const young = await orphanRun({ agentId, input: { script: [{ final: { young: true } }] } });
      await h.orm.em.fork().nativeUpdate(OutboxEntry, { runId: young.id }, { createdAt: new Date() });
      const started = await sweepQueuedRuns({ orm: h.orm, temporal: h.temporal, config: h.config }, 15);
      expect(started).toBeGreaterThanOrEqual(1);
      expect((await waitForStatus(h, auth, old.id, 'succeeded')).output).toEqual({ swept: true });
      const describe = h.temporal.client.workflow.getHandle(runWorkflowId(young.id)).describe();
      await expect(describe).rejects.toThrow(/not found/i);
      // the run that was started is not started again
      expect(await sweepQueuedRuns({ orm: h.orm, temporal: h.temporal, config: h.config }, 15)).toBe(0);
      // its start's row is gone once made (a start has no key a retry looks up); the young one's waits
      expect(await outboxRows(old.id)).toEqual([]);
      expect(await outboxRows(young.id)).toEqual([{ kind: 'start_run', done: false }]);
    }, 60_000);

    it("a create's start leaves no outbox row once it is made", async () => {
      const run = await createRun(h, auth, { agentId, input: { script: [{ final: { marked: true } }] } });
      // the mark is written in a batch a moment after the start (domain/shared/outbox/doneMarks.ts)
      expect(
        await pollUntil(
          5_000,
          () => outboxRows(run.id),
          (rows) => rows.length === 0,
        ),
      ).toEqual([]);
      expect((await waitForStatus(h, auth, run.id, 'succeeded')).output).toEqual({ marked: true });
    }, 60_000);

    it('delivers an answer whose request died after committing it, and a retry of it gets the same 202', async () => {
      const run = await createRun(h, auth, { agentId, input: { script: [{ ask: 'q' }] } });
      const asking = await waitForStatus(h, auth, run.id, 'needs_input');
      const actionId = asking.pendingAction.id;
      // what answerGate commits (the claim and the signal in the outbox), with no call made after it
      const em = h.orm.em.fork();
      await em.transactional(async (tx) => {
        await tx.nativeUpdate(Run, { id: run.id }, { answeredActionId: actionId });
        const signal = new OutboxEntry({
          kind: 'signal_run',
          runId: run.id,
          signal: 'input',
          payload: { answer: 'late', actionId },
        });
        signal.dedupeKey = `answer:${run.id}:${actionId}`;
        signal.createdAt = new Date(Date.now() - 60_000);
        tx.persist(signal);
      });
      expect(await sweepOutbox({ orm: h.orm, temporal: h.temporal, config: h.config }, 15, ['signal_run'])).toBe(1);
      expect((await waitForStatus(h, auth, run.id, 'succeeded')).output).toEqual({ answers: ['late'] });
      const retry = await h.request(`/v1/runs/${run.id}/input`, {
        method: 'POST',
        headers: auth,
        json: { answer: 'late', actionId },
      });
      expect(retry.status).toBe(202);
      expect((await retry.json()).status).toBe('succeeded');
      // an answer's row stays, marked done: the retry above found its first answer by its key
      expect(await outboxRows(run.id)).toContainEqual({ kind: 'signal_run', done: true });
    }, 60_000);

    it('fails, charges and announces a run whose workflow was terminated behind its back', async () => {
      const rx = await startReceiver();
      try {
        const sub = await h.request('/v1/webhooks', {
          method: 'POST',
          headers: auth,
          json: { url: rx.url, events: ['run.failed'], secret: 'whsec-0123456789abcdef' },
        });
        expect(sub.status).toBe(201);
        const run = await createRun(h, auth, { agentId, input: { script: [{ ask: 'q' }] } });
        await waitForStatus(h, auth, run.id, 'needs_input');
        const handle = h.temporal.client.workflow.getHandle(runWorkflowId(run.id));
        await handle.terminate('an operator in Temporal UI');
        const deps = {
          orm: h.orm,
          temporal: h.temporal,
          config: h.config,
          models: createModelRegistry(h.config.openai),
        };
        // Temporal's visibility store catches up with the termination a moment later: sweep until it has.
        const finished = await pollUntil(
          10_000,
          () => sweepStuckRuns(deps),
          (n) => n > 0,
          'the sweep to finish the run',
        );
        expect(finished).toBeGreaterThanOrEqual(1);
        const after = await (await h.request(`/v1/runs/${run.id}`, { headers: auth })).json();
        expect(after).toMatchObject({
          status: 'failed',
          pendingAction: null,
          error: { code: 'run.internal_error' },
          usage: { costUsd: 0.001 },
        });
        await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'the run.failed delivery');
        expect(JSON.parse(rx.received[0].raw.toString())).toMatchObject({
          type: 'run.failed',
          run: { id: run.id, status: 'failed', error: { code: 'run.internal_error' } },
        });
        // a second sweep leaves the finished run alone
        expect(await sweepStuckRuns(deps)).toBe(0);
      } finally {
        await rx.close();
      }
    }, 60_000);

    it('never executes a run that was marked failed before its workflow got to it', async () => {
      const run = await orphanRun({ agentId, input: { script: [{ final: { ran: true } }] } });
      await h.orm.em
        .fork()
        .nativeUpdate(Run, { id: run.id }, { status: 'failed', error: { code: 'unavailable', message: 'x' } });
      await startRunWorkflow(h.temporal.client, h.config.temporal, run);
      const state = await h.temporal.client.workflow.getHandle(runWorkflowId(run.id)).result();
      expect(state.status).toBe('failed');
      const after = await (await h.request(`/v1/runs/${run.id}`, { headers: auth })).json();
      expect(after).toMatchObject({ status: 'failed', output: null, error: { code: 'unavailable' } });
      const { steps } = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
      expect(steps).toEqual([]);
      const charges = await h.orm.em
        .fork()
        .getConnection()
        .execute(`select count(*)::int as n from ledger_entries where run_id = ?`, [run.id]);
      expect(charges[0].n).toBe(0);
    }, 60_000);
  });

  it('a run whose worker loses PostgreSQL in the middle of a tool call waits it out: one call, run succeeds', async () => {
    const pg = new URL(h.config.databaseUrl);
    const relay = await startDatabaseRelay({ host: pg.hostname, port: Number(pg.port) });
    let workerOrm: Orm | undefined;
    let worker: RunningWorker | undefined;
    let hits = 0;
    let answer: (() => void) | undefined;
    const tool = http.createServer((_req, res) => {
      hits++;
      answer = () => res.end('{"weather":"sunny"}');
    });
    await new Promise<void>((r) => tool.listen(0, '127.0.0.1', r));
    try {
      workerOrm = await initOrm(`postgres://${pg.username}@127.0.0.1:${relay.port}${pg.pathname}`, 4);
      worker = await startWorker(h.config, workerOrm);
      const url = `http://127.0.0.1:${(tool.address() as AddressInfo).port}/weather`;
      const run = await createRun(h, auth, {
        agentId,
        input: { script: [{ tool: 'http_request', args: { url } }, { final: { ok: 1 } }] },
      });
      await pollUntil(30_000, () => answer, Boolean, 'the tool call');
      expect(hits).toBe(1);
      // PostgreSQL goes away for the worker while the tool answers; longer than the 3 attempts (1 s, 2 s) of the call
      await relay.cut();
      answer!();
      await new Promise((r) => setTimeout(r, 6_000));
      await relay.restore();
      const done = await waitForStatus(h, auth, run.id, ['succeeded', 'failed'], 60_000);
      expect(done).toMatchObject({ status: 'succeeded', output: { ok: 1 } });
      expect(hits).toBe(1);
      const { steps } = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
      expect(steps.map((s: { type: string; status: string }) => `${s.type}:${s.status}`)).toEqual([
        'model:succeeded',
        'tool:succeeded',
        'model:succeeded',
      ]);
    } finally {
      await worker?.stop();
      await workerOrm?.close(true);
      await relay.close();
      tool.close();
    }
  }, 120_000);
});
