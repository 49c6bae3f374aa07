import { randomBytes, randomUUID } from 'node:crypto';
import { PLAN_RETENTION_DAYS, retentionDaysByPlan } from '../../domain/retention/policy';
import { purgeExpired } from '../../domain/retention/purge';
import { syncNamespaceRetention, syncRetentionSchedule } from '../../domain/retention/schedule';
import { parseKeyRing } from '../../platform/secrets';
import { createTemporal } from '../../platform/temporal';
import { retentionWorkflow, RETENTION_SCHEDULE_ID } from '../../workflows/retentionWorkflow';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

// Retention (docs/operations.md#retention) on rows seeded at known ages: each workspace keeps its plan's days.
describe('retention', () => {
  let h: Harness;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    // batches of 2, so every table takes several and the walk steps over the rows a longer plan keeps
    ({ h, stop } = await startRunStack({ retention: { batchSize: 2 } }));
  }, 120_000);
  afterAll(() => stop?.());

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    h.orm.em.fork().getConnection().execute<T[]>(text, params);
  const ago = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);

  /** A workspace on `plan` with a run (never started: its task queue has no worker) to hang events on. */
  async function workspaceOn(plan: 'free_trial' | 'scale') {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, plan);
    const auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { ok: true } }] } });
    const [conversation] = await sql<{ id: string }>(
      `insert into conversations (id, created_at, updated_at, workspace_id, agent_id, channel, status, context)
       values (?, now(), now(), ?, ?, 'tutor', 'open', '{}') returning id`,
      [randomUUID(), owner.workspaceId, agent.id],
    );
    return { workspaceId: owner.workspaceId, runId: run.id as string, conversationId: conversation.id };
  }

  /** One row of each table at `days` old; returns their keys. */
  async function seed(ws: Awaited<ReturnType<typeof workspaceOn>>, days: number, seq: number) {
    const at = ago(days);
    const [event] = await sql<{ seq: string }>(
      `insert into run_events (run_id, type, data, created_at) values (?, 'run.status', '{}', ?) returning seq`,
      [ws.runId, at],
    );
    const webhookEvent = randomUUID();
    await sql(
      `insert into webhook_events (id, created_at, updated_at, workspace_id, run_id, type, event_key, body)
       values (?, ?, ?, ?, ?, 'run.succeeded', ?, '{}')`,
      [webhookEvent, at, at, ws.workspaceId, ws.runId, randomUUID()],
    );
    const delivery = randomUUID();
    await sql(
      `insert into webhook_deliveries (id, created_at, updated_at, subscription_id, workspace_id, run_id, type,
                                       event_key, status, event_id)
       values (?, ?, ?, ?, ?, ?, 'run.succeeded', ?, 'succeeded', ?)`,
      [delivery, at, at, randomUUID(), ws.workspaceId, ws.runId, randomUUID(), webhookEvent],
    );
    const message = randomUUID();
    await sql(
      `insert into conversation_messages (id, created_at, updated_at, conversation_id, seq, role, text)
       values (?, ?, ?, ?, ?, 'user', 'hello')`,
      [message, at, at, ws.conversationId, seq],
    );
    return { event: event.seq, webhookEvent, delivery, message };
  }

  /** Which of the seeded rows are still there. */
  async function present(rows: Awaited<ReturnType<typeof seed>>) {
    const one = async (table: string, key: string, value: string) =>
      (await sql<{ n: number }>(`select count(*)::int as n from ${table} where ${key} = ?`, [value]))[0].n === 1;
    return {
      event: await one('run_events', 'seq', rows.event),
      webhookEvent: await one('webhook_events', 'id', rows.webhookEvent),
      delivery: await one('webhook_deliveries', 'id', rows.delivery),
      message: await one('conversation_messages', 'id', rows.message),
    };
  }
  const all = (v: boolean) => ({ event: v, webhookEvent: v, delivery: v, message: v });

  it('the daily sweep deletes what each plan no longer keeps, and nothing else', async () => {
    expect(PLAN_RETENTION_DAYS.free_trial).toBe(7);
    expect(PLAN_RETENTION_DAYS.scale).toBe(365);
    const free = await workspaceOn('free_trial');
    const scale = await workspaceOn('scale');
    const freeOld = [await seed(free, 10, 1), await seed(free, 9, 2), await seed(free, 8, 3)];
    const freeNew = await seed(free, 3, 4);
    const scaleOld = await seed(scale, 400, 1);
    // older than the free plan's days, interleaved with its rows: kept, and stepped over by the walk
    const scaleKept = [await seed(scale, 11, 2), await seed(scale, 9.5, 3), await seed(scale, 8.5, 4)];
    const doneOld = randomUUID();
    const pendingOld = randomUUID();
    for (const [id, doneAt] of [
      [doneOld, ago(8)],
      [pendingOld, null],
    ] as const) {
      await sql(
        `insert into outbox (id, created_at, updated_at, kind, call, done_at, lease_until)
         values (?, ?, ?, 'announce_run', '{}', ?, now() + interval '1 hour')`,
        [id, ago(9), ago(9), doneAt],
      );
    }

    const result = await h.temporal.client.workflow.execute(retentionWorkflow, {
      workflowId: `retention-test-${randomUUID()}`,
      taskQueue: h.config.temporal.taskQueue,
      args: [{}],
    });

    for (const rows of freeOld) expect(await present(rows)).toEqual(all(false));
    expect(await present(scaleOld)).toEqual(all(false));
    expect(await present(freeNew)).toEqual(all(true));
    for (const rows of scaleKept) expect(await present(rows)).toEqual(all(true));
    // the sweep reports what it deleted, per table (other tests' rows are all new)
    expect(result.run_events).toBeGreaterThanOrEqual(4);
    expect(result.webhook_deliveries).toBeGreaterThanOrEqual(4);
    expect(result.conversation_messages).toBeGreaterThanOrEqual(4);
    const outbox = await sql<{ id: string }>(`select id from outbox where id in (?, ?)`, [doneOld, pendingOld]);
    // a done row past its week goes; a row still to relay never does, however old
    expect(outbox.map((r) => r.id)).toEqual([pendingOld]);
    await sql(`delete from outbox where id = ?`, [pendingOld]);
    // the run's own events of today are kept
    const today = await sql(`select 1 from run_events where run_id = ? and created_at > now() - interval '1 day'`, [
      free.runId,
    ]);
    expect(today.length).toBeGreaterThan(0);
  }, 120_000);

  it('SVC_RETENTION_DAYS overrides every plan', async () => {
    const scale = await workspaceOn('scale');
    const old = await seed(scale, 3, 1);
    const recent = await seed(scale, 1, 2);
    const deleted = await purgeExpired(h.orm.em.fork(), 'run_events', {
      daysByPlan: retentionDaysByPlan(2),
      batchSize: 1,
    });
    expect(deleted).toBeGreaterThanOrEqual(1);
    for (const table of ['webhook_deliveries', 'webhook_events', 'conversation_messages'] as const) {
      await purgeExpired(h.orm.em.fork(), table, { daysByPlan: retentionDaysByPlan(2), batchSize: 1 });
    }
    expect(await present(old)).toEqual(all(false));
    expect(await present(recent)).toEqual(all(true));
  }, 60_000);

  it('a daily schedule starts the sweep, and Temporal keeps histories the shortest plan days', async () => {
    await syncRetentionSchedule(h.temporal.client, h.config.temporal.taskQueue);
    // a second worker's start finds it made and leaves one schedule
    await syncRetentionSchedule(h.temporal.client, h.config.temporal.taskQueue);
    const handle = h.temporal.client.schedule.getHandle(RETENTION_SCHEDULE_ID);
    try {
      const described = await handle.describe();
      expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionWorkflow' });
      expect(described.spec.calendars).toEqual([expect.objectContaining({ hour: [{ start: 3, end: 3, step: 1 }] })]);
    } finally {
      await handle.delete();
    }
    expect(await syncNamespaceRetention(h.temporal, h.config.temporal.namespace)).toBe(7);
    const ns = await h.temporal.client.workflowService.describeNamespace({ namespace: h.config.temporal.namespace });
    expect(Number(ns.config?.workflowExecutionRetentionTtl?.seconds)).toBe(7 * 24 * 3600);
    expect(await syncNamespaceRetention(h.temporal, h.config.temporal.namespace, 30)).toBe(30);
  }, 60_000);

  it('replaces a schedule stored under a key the service no longer holds', async () => {
    // another deployment's key ring (say, a data directory kept across a reset of SVC_SECRETS_KEY)
    const other = createTemporal({ ...h.config.temporal, payloadKeys: parseKeyRing(randomBytes(32).toString('base64')) });
    const handle = h.temporal.client.schedule.getHandle(RETENTION_SCHEDULE_ID);
    try {
      await syncRetentionSchedule(other.client, 'a-queue-of-the-old-deployment');
      await expect(handle.describe()).rejects.toThrow(/not configured/);
      await syncRetentionSchedule(h.temporal.client, h.config.temporal.taskQueue);
      const described = await handle.describe();
      expect(described.action).toMatchObject({ type: 'startWorkflow', taskQueue: h.config.temporal.taskQueue });
    } finally {
      await handle.delete().catch(() => undefined);
      await other.close();
    }
  }, 60_000);
});
