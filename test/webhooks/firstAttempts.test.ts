import { randomUUID } from 'node:crypto';
import { recordRunDeliveries, recordRunTargets } from '../../domain/webhooks/dispatch';
import { Limiter, makeFirstAttempts } from '../../domain/webhooks/firstAttempts';
import { CheckedConnections } from '../../platform/net/safeHttp';
import { openSecret, secretSlot } from '../../db/secretColumns';
import { createSecretBox } from '../../platform/secrets';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun } from '../helpers/runs';
import { runWorkflowId } from '../../workflows/messages';
import { startRunStack } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

// The fan-out makes every subscriber's first attempt itself, at once (docs/api/webhooks.md, "Delivery"),
// with real receivers on 127.0.0.1; attempts 2 and 3 go on as before.
describe('webhook first attempts in the fan-out', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;
  let workspaceId: string;
  let echo: { id: string };
  const secret = 'whsec-0123456789abcdef';

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true, maxWebhooks: 100, webhookWorkspaceSlots: 25 }));
  }, 120_000);
  afterAll(() => stop?.());

  beforeEach(async () => {
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:write']));
    echo = await createAgent(h, auth, { presetId: 'general-assistant' });
  });

  const subscribe = async (url: string) => {
    const res = await h.request('/v1/webhooks', {
      method: 'POST',
      headers: auth,
      json: { url, events: ['run.succeeded'], secret },
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string };
  };
  const deliveries = async (subId: string) =>
    (await (await h.request(`/v1/webhooks/${subId}/deliveries`, { headers: auth })).json()).deliveries;

  /** A status change announced by hand (no workflow of its own delivers it). */
  const handAnnounced = () => ({
    id: randomUUID(),
    workspaceId,
    status: 'succeeded' as const,
    output: null,
    error: null,
    pendingAction: null,
  });

  /** What makeFirstAttempts needs beside the deliveries: 25 slots, a limit of 10, receivers on 127.0.0.1. */
  const firstAttemptDeps = () => ({
    workspaceSlots: 25,
    limiter: new Limiter(10),
    progress: () => undefined,
    allowPrivate: true,
    box: createSecretBox(h.config.secretKeys),
  });
  /** Each delivery row of a run: its status and whether it holds a slot. */
  const deliveryRows = (
    runId: string,
  ): Promise<Array<{ id: string; subscription_id: string; status: string; held: boolean }>> =>
    h.orm.em
      .getConnection()
      .execute(
        `select id, subscription_id, status, slot_until is not null as held from webhook_deliveries where run_id = ?`,
        [runId],
      );

  /** A receiver that answers each request `delayMs` later, so attempts overlap; `most` is the peak in flight. */
  const overlappingReceiver = async (delayMs: number) => {
    let inFlight = 0;
    let peak = 0;
    const connections = new Set<string>();
    const rx = await startReceiver((_n, req, res) => {
      connections.add(`${req.socket.remotePort}`);
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end('ok');
      }, delayMs);
    });
    return { rx, most: () => peak, connections: () => connections.size };
  };

  it('gives 100 subscribers their first attempt, each exactly once, never more than the workspace slots at once', async () => {
    const { rx, most } = await overlappingReceiver(50);
    try {
      for (let i = 0; i < 100; i++) await subscribe(`${rx.url}?n=${i}`);
      const run = await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(60_000, () => rx.received.length >= 100, Boolean, '100 first attempts');
      // the run's workflow closes only after its announcement's deliveries: no attempt can follow
      await h.temporal.client.workflow.getHandle(runWorkflowId(run.id)).result();
      expect(rx.received).toHaveLength(100);
      expect(new Set(rx.received.map((r) => r.headers['x-svc-delivery'])).size).toBe(100);
      expect(rx.received.every((r) => r.headers['x-svc-attempt'] === '1')).toBe(true);
      // concurrent, yet bounded by SVC_WEBHOOK_WORKSPACE_SLOTS (25)
      expect(most()).toBeGreaterThan(1);
      expect(most()).toBeLessThanOrEqual(25);
    } finally {
      await rx.close();
    }
  }, 120_000);

  it('numbers the attempts after a failed first one 2 and 3 in the header and the log', async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 503;
      res.end();
    });
    try {
      const sub = await subscribe(rx.url);
      await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(30_000, () => rx.received.length === 3, Boolean, '3 attempts');
      const log = await pollUntil(
        10_000,
        async () => (await deliveries(sub.id))[0] as { status: string; attempts: unknown[] } | undefined,
        (l) => l?.status === 'failed',
        'the failed delivery',
      );
      expect(rx.received.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2', '3']);
      expect(log).toMatchObject({ status: 'failed' });
      expect(log!.attempts).toHaveLength(3);
    } finally {
      await rx.close();
    }
  }, 60_000);

  it('a retried fan-out never sends attempt 1 again to a delivery whose log already has it', async () => {
    const rx = await startReceiver();
    try {
      await subscribe(`${rx.url}?n=a`);
      await subscribe(`${rx.url}?n=b`);
      // A status change announced by hand, so no workflow of its own delivers it.
      const run = handAnnounced();
      const ids = await recordRunDeliveries(h.orm.em.fork(), run);
      expect(ids).toHaveLength(2);
      // as if the first try crashed right after delivery a's attempt 1 failed and was logged
      await h.orm.em
        .getConnection()
        .execute(`update webhook_deliveries set attempts = ?::jsonb where id = ?`, [
          JSON.stringify([{ at: new Date().toISOString(), statusCode: 500, error: 'receiver answered 500' }]),
          ids[0],
        ]);
      const deps = firstAttemptDeps();
      const first = await makeFirstAttempts(h.orm.em.fork(), workspaceId, ids, deps);
      expect(first).toEqual({ succeeded: 1, gone: 0, retry: [ids[0]], queued: [] });
      expect(rx.received.map((r) => r.headers['x-svc-delivery'])).toEqual([ids[1]]);
      // and once more: delivery b succeeded, a still waits for attempt 2; nothing is sent
      const again = await makeFirstAttempts(
        h.orm.em.fork(),
        workspaceId,
        await recordRunDeliveries(h.orm.em.fork(), run),
        deps,
      );
      expect(again).toEqual({ succeeded: 0, gone: 0, retry: [ids[0]], queued: [] });
      expect(rx.received).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });
  it('passes slots (and their connections) from delivery to delivery, never more than the workspace slots, and the next fan-out reuses them', async () => {
    const { rx, most, connections } = await overlappingReceiver(5);
    const pool = new CheckedConnections();
    const conn = h.orm.em.getConnection();
    let mostHeld = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const [{ held }] = await conn.execute(
          `select count(*)::int as held from webhook_deliveries where workspace_id = ? and slot_until > now()`,
          [workspaceId],
        );
        mostHeld = Math.max(mostHeld, held);
      }
    })();
    try {
      for (let i = 0; i < 60; i++) await subscribe(`${rx.url}?n=${i}`);
      const run = handAnnounced();
      const ids = await recordRunDeliveries(h.orm.em.fork(), run);
      const deps = {
        workspaceSlots: 7,
        limiter: new Limiter(50),
        progress: () => undefined,
        allowPrivate: true,
        box: createSecretBox(h.config.secretKeys),
        connections: pool,
      };
      const first = await makeFirstAttempts(h.orm.em.fork(), workspaceId, ids, deps);
      watching = false;
      await watch;
      expect(first).toEqual({ succeeded: 60, gone: 0, retry: [], queued: [] });
      expect(rx.received).toHaveLength(60);
      expect(most()).toBeLessThanOrEqual(7);
      expect(mostHeld).toBeLessThanOrEqual(7);
      // a slot passed on sends on the connection its last attempt used: no more connections than slots
      expect(connections()).toBeLessThanOrEqual(7);
      // every attempt in the log, every slot given back
      const rows: Array<{ status: string; attempts: number; held: boolean }> = await conn.execute(
        `select status, jsonb_array_length(attempts) as attempts, slot_until is not null as held
         from webhook_deliveries where run_id = ?`,
        [run.id],
      );
      expect(rows).toHaveLength(60);
      expect(rows.every((r) => r.status === 'succeeded' && Number(r.attempts) === 1 && !r.held)).toBe(true);
      // the next announcement's fan-out sends over the connections the last one left open
      const opened = connections();
      const next = await makeFirstAttempts(
        h.orm.em.fork(),
        workspaceId,
        await recordRunDeliveries(h.orm.em.fork(), handAnnounced()),
        deps,
      );
      expect(next).toEqual({ succeeded: 60, gone: 0, retry: [], queued: [] });
      expect(rx.received).toHaveLength(120);
      expect(connections()).toBe(opened);
    } finally {
      watching = false;
      await watch;
      pool.close();
      await rx.close();
    }
  }, 60_000);

  it('gets the first subscribers their attempt while the fan-out still opens connections to the others', async () => {
    /** A limiter that counts the attempts the fan-out has started. */
    class Counting extends Limiter {
      started = 0;
      override run<T>(task: () => Promise<T>): Promise<T> {
        this.started++;
        return super.run(task);
      }
    }
    const limiter = new Counting(100);
    const startedAtArrival: number[] = [];
    const rx = await startReceiver((_n, _req, res) => {
      startedAtArrival.push(limiter.started);
      res.end('ok');
    });
    const pool = new CheckedConnections();
    try {
      for (let i = 0; i < 100; i++) await subscribe(`${rx.url}?n=${i}`);
      const ids = await recordRunDeliveries(h.orm.em.fork(), handAnnounced());
      const deps = { ...firstAttemptDeps(), workspaceSlots: 100, limiter, connections: pool };
      const first = await makeFirstAttempts(h.orm.em.fork(), workspaceId, ids, deps);
      expect(first).toEqual({ succeeded: 100, gone: 0, retry: [], queued: [] });
      expect(startedAtArrival).toHaveLength(100);
      // no connection was open: the first request was written, and arrived, before the last attempt began
      expect(startedAtArrival[0]).toBeLessThan(100);
    } finally {
      pool.close();
      await rx.close();
    }
  }, 60_000);

  it('records one delivery per subscriber in two statements, once however many tries run at once', async () => {
    const conn = h.orm.em.getConnection();
    const subs = [];
    for (let i = 0; i < 30; i++) subs.push(await subscribe(`http://127.0.0.1:9/hook?n=${i}`));
    const other = await subscribe('http://127.0.0.1:9/other');
    // a subscription of another event kind, and one disabled, receive nothing
    await conn.execute(`update webhook_subscriptions set events = '{run.failed}' where id = ?`, [other.id]);
    const disabled = await subscribe('http://127.0.0.1:9/disabled');
    await conn.execute(`update webhook_subscriptions set status = 'disabled' where id = ?`, [disabled.id]);
    const run = handAnnounced();
    const statements: string[] = [];
    const knex = (h.orm.em.getConnection() as any).getKnex();
    const count = (q: { sql: string }) => statements.push(q.sql);
    knex.on('query', count);
    const first = await recordRunTargets(h.orm.em.fork(), run);
    knex.off('query', count);
    // (the API's own background statements, if any, are not the recording's)
    expect(statements.filter((q) => q.includes('webhook_'))).toHaveLength(2);
    const tries = await Promise.all([1, 2, 3].map(() => recordRunTargets(h.orm.em.fork(), run)));
    for (const t of tries) expect(t).toEqual(first);
    expect(first).toHaveLength(30);
    expect(new Set(first.map((t) => t.url))).toEqual(new Set(subs.map((_, i) => `http://127.0.0.1:9/hook?n=${i}`)));
    expect(first.every((t) => t.status === 'pending' && t.live && t.attempts === 0)).toBe(true);
    // each carries its subscription's secret as stored: sealed, opening to the caller's secret for that row only
    const box = createSecretBox(h.config.secretKeys);
    for (const t of first) {
      expect(t.secret).not.toContain(secret);
      expect(openSecret(box, t.secret, secretSlot('webhook_subscriptions', t.subscriptionId, 'secret'))).toBe(secret);
    }
    // one body for all, the one recorded the first time, carrying the event's id
    const [event] = await conn.execute(`select id, body from webhook_events where run_id = ?`, [run.id]);
    expect(first.every((t) => t.body === event.body)).toBe(true);
    expect(JSON.parse(event.body)).toMatchObject({ id: event.id, type: 'run.succeeded', run: { id: run.id } });
    const [{ n }] = await conn.execute(`select count(*)::int as n from webhook_deliveries where run_id = ?`, [run.id]);
    expect(n).toBe(30);
    expect(await recordRunDeliveries(h.orm.em.fork(), run)).toEqual(first.map((t) => t.id));
  });

  it('records deliveries holding their slots when all fit (never past the workspace slots, whatever runs at once), and the attempts then claim none', async () => {
    const rx = await startReceiver();
    try {
      for (let i = 0; i < 5; i++) await subscribe(`${rx.url}?n=${i}`);
      const em = h.orm.em.fork();
      const held = async () =>
        (
          await em
            .getConnection()
            .execute(
              `select count(*)::int as n from webhook_deliveries where workspace_id = ? and slot_until > now()`,
              [workspaceId],
            )
        )[0].n as number;
      // 5 slots, 5 subscribers: every delivery is recorded holding one
      const run = handAnnounced();
      const first = await recordRunTargets(h.orm.em.fork(), run, { claimSlots: 5 });
      expect(first.filter((t) => t.claimed)).toHaveLength(5);
      expect(await held()).toBe(5);
      // a retried recording claims nothing more (the rows are there), and says so
      expect((await recordRunTargets(h.orm.em.fork(), run, { claimSlots: 5 })).some((t) => t.claimed)).toBe(false);
      expect(await held()).toBe(5);
      // not all of them fit: none is claimed (the first attempts claim in waves)
      const release = () =>
        em
          .getConnection()
          .execute(`update webhook_deliveries set slot_until = null where workspace_id = ?`, [workspaceId]);
      await release();
      expect((await recordRunTargets(h.orm.em.fork(), handAnnounced(), { claimSlots: 4 })).some((t) => t.claimed)).toBe(
        false,
      );
      expect(await held()).toBe(0);

      // Four recordings at once, 10 slots, none held: two of them get all their 5, the others none.
      const four = await Promise.all(
        [1, 2, 3, 4].map(() => recordRunTargets(h.orm.em.fork(), handAnnounced(), { claimSlots: 10 })),
      );
      expect(four.map((targets) => targets.filter((t) => t.claimed).length).sort()).toEqual([0, 0, 5, 5]);
      expect(await held()).toBe(10);

      // The first attempts of a recording that holds every slot it needs: no claim statement, all delivered.
      await release();
      const targets = await recordRunTargets(h.orm.em.fork(), handAnnounced(), { claimSlots: 5 });
      expect(targets.every((t) => t.claimed)).toBe(true);
      const statements: string[] = [];
      const knex = (h.orm.em.getConnection() as any).getKnex();
      const count = (q: { sql: string }) => statements.push(q.sql);
      knex.on('query', count);
      const outcome = await makeFirstAttempts(h.orm.em.fork(), workspaceId, targets, {
        workspaceSlots: 5,
        limiter: new Limiter(10),
        progress: () => undefined,
        allowPrivate: true,
        box: createSecretBox(h.config.secretKeys),
      }).finally(() => knex.off('query', count));
      expect(outcome).toEqual({ succeeded: 5, gone: 0, retry: [], queued: [] });
      expect(statements.filter((q) => q.includes('pg_advisory_xact_lock'))).toHaveLength(0);
      // the slots are given back with the log
      expect(await held()).toBe(0);
    } finally {
      await rx.close();
    }
  }, 60_000);

  it("finds an event's deliveries by index, however many deliveries the table holds", async () => {
    const conn = h.orm.em.getConnection();
    const sub = await subscribe('http://127.0.0.1:9/hook');
    // 20,000 deliveries of other runs (analysed), so a plan that reads the table would show
    await conn.execute(
      `insert into webhook_deliveries (id, created_at, updated_at, subscription_id, workspace_id, run_id, type, event_key, status)
       select gen_random_uuid(), now(), now(), ?, ?, gen_random_uuid(), 'run.succeeded', 'final', 'succeeded'
       from generate_series(1, 20000)`,
      [sub.id, workspaceId],
    );
    await conn.execute('analyze webhook_deliveries');
    const statements: Array<{ sql: string; bindings: unknown[] }> = [];
    const knex = (conn as any).getKnex();
    const keep = (q: { sql: string; bindings: unknown[] }) => statements.push(q);
    knex.on('query', keep);
    const run = handAnnounced();
    const targets = await recordRunTargets(h.orm.em.fork(), run).finally(() => knex.off('query', keep));
    expect(targets).toHaveLength(1);
    const recording = statements.find((q) => q.sql.includes('insert into webhook_deliveries'));
    const [{ 'QUERY PLAN': plan }] = await conn.execute(`explain (format json) ${recording!.sql}`, recording!.bindings);
    // every read of the table goes by an index on what it looks for: the event's run, or (the count of
    // held slots) the workspace; a scan of a whole index or of the table would read all 20,000
    const reads: string[] = [];
    const walk = (node: Record<string, any>) => {
      if (node['Relation Name'] === 'webhook_deliveries' && node['Node Type'] !== 'ModifyTable')
        reads.push(`${node['Node Type']}: ${node['Index Cond'] ?? ''}`);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan[0].Plan);
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(read).toMatch(/Index.*: \(*(run_id|workspace_id) = /);
  });

  it('records no event while nobody listens for it', async () => {
    const sub = await subscribe('http://127.0.0.1:9/hook');
    await h.orm.em
      .getConnection()
      .execute(`update webhook_subscriptions set events = '{run.failed}' where id = ?`, [sub.id]);
    const run = handAnnounced();
    expect(await recordRunTargets(h.orm.em.fork(), run)).toEqual([]);
    const events = await h.orm.em.getConnection().execute(`select id from webhook_events where run_id = ?`, [run.id]);
    expect(events).toHaveLength(0);
  });

  it('treats a subscription row removed outright (no foreign key holds it) as deleted: its delivery fails, nothing is sent', async () => {
    const rx = await startReceiver();
    try {
      const kept = await subscribe(`${rx.url}?n=kept`);
      const removed = await subscribe(`${rx.url}?n=removed`);
      const run = handAnnounced();
      const ids = await recordRunDeliveries(h.orm.em.fork(), run);
      expect(ids).toHaveLength(2);
      // what an operator's delete leaves: the deliveries stay, their subscription row is gone
      await h.orm.em.getConnection().execute(`delete from webhook_subscriptions where id = ?`, [removed.id]);
      // a retried fan-out finds both deliveries again, the orphan as not live
      const again = await recordRunTargets(h.orm.em.fork(), run);
      expect(again.map((t) => t.live).sort()).toEqual([false, true]);
      const first = await makeFirstAttempts(h.orm.em.fork(), workspaceId, ids, firstAttemptDeps());
      expect(first).toEqual({ succeeded: 1, gone: 1, retry: [], queued: [] });
      const rows = await deliveryRows(run.id);
      expect(rows.find((r) => r.subscription_id === removed.id)).toMatchObject({ status: 'failed', held: false });
      const keptRow = rows.find((r) => r.subscription_id === kept.id);
      expect(keptRow).toMatchObject({ status: 'succeeded', held: false });
      expect(rx.received.map((r) => r.headers['x-svc-delivery'])).toEqual([keptRow!.id]);
      // the kept subscription's log still lists its delivery
      expect(await deliveries(kept.id)).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });

  it('marks a delivery whose subscription was deleted before its attempt as gone, and sends it nothing', async () => {
    const rx = await startReceiver();
    try {
      const kept = await subscribe(`${rx.url}?n=kept`);
      const dropped = await subscribe(`${rx.url}?n=dropped`);
      const run = handAnnounced();
      const ids = await recordRunDeliveries(h.orm.em.fork(), run);
      expect((await h.request(`/v1/webhooks/${dropped.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
      const first = await makeFirstAttempts(h.orm.em.fork(), workspaceId, ids, firstAttemptDeps());
      expect(first).toEqual({ succeeded: 1, gone: 1, retry: [], queued: [] });
      expect(rx.received.map((r) => r.headers['x-svc-delivery'])).toHaveLength(1);
      const rows = await deliveryRows(run.id);
      expect(rows.find((r) => r.subscription_id === dropped.id)).toMatchObject({ status: 'failed', held: false });
      expect(rows.find((r) => r.subscription_id === kept.id)).toMatchObject({ status: 'succeeded', held: false });
    } finally {
      await rx.close();
    }
  });
});
