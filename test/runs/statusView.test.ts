import { createModelRegistry } from '../../domain/models/registry';
import { createRunExecution } from '../../domain/runs/execution';
import { serializeRun, serializeStep } from '../../domain/runs/presenters';
import { findRunView } from '../../domain/runs/find';
import { runViewJson } from '../../domain/runs/runViewSql';
import { writeStatus } from '../../domain/runs/statusWrites';
import { writeStep } from '../../domain/runs/stepWrites';
import { createToolRegistry } from '../../domain/tools/registry';
import { Run } from '../../db/entities/Run';
import { RunStep } from '../../db/entities/RunStep';
import { loadConfig } from '../../platform/config';
import type { TransitionPatch } from '../../workflows/activityTypes';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun } from '../helpers/runs';
import { testTaskQueue } from '../helpers/worker';

/**
 * A status change is one statement that builds its event's run view in SQL (domain/runs/statusWrites.ts,
 * with the presenter restated as SQL in domain/runs/runViewSql.ts): that view must be exactly the one
 * presentRun builds (serializeRun of the row read back), as must `GET /v1/runs/{id}`'s view of the plain
 * row (presentRunRow), for rows in every state, and the change must follow the rules the entity's transition followed. No worker runs
 * here: the test plays the workflow's part.
 */
describe('a status change in one statement', () => {
  let h: Harness;
  let auth: Record<string, string>;
  let agentId: string;
  let workspaceId: string;
  let execution: ReturnType<typeof createRunExecution>;

  beforeAll(async () => {
    const base = loadConfig(process.env);
    h = await startApi({ temporal: { ...base.temporal, taskQueue: testTaskQueue() } });
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
    agentId = (await createAgent(h, auth, { presetId: 'general-assistant' })).id;
    execution = createRunExecution({
      orm: h.orm,
      models: createModelRegistry(h.config.openai),
      tools: createToolRegistry({ allowPrivate: false }),
    });
  });
  afterAll(() => h?.close());

  const db = () => h.orm.em.fork().getConnection();
  const newRun = async (metadata: Record<string, unknown> = {}) =>
    (await createRun(h, auth, { agentId, input: { text: 'hi', nested: { a: [1, 'b', null] } }, metadata }))
      .id as string;
  const viewInSql = async (runId: string) =>
    (await db().execute(`select ${runViewJson('r')} as view from runs r where r.id = ?`, [runId]))[0].view;
  const viewOfEntity = async (runId: string) => serializeRun(await h.orm.em.fork().findOneOrFail(Run, runId));
  const statusEvents = async (runId: string): Promise<unknown[]> => {
    const rows: Array<{ data: unknown }> = await db().execute(
      `select data from run_events where run_id = ? and type = 'run.status' order by seq`,
      [runId],
    );
    return rows.map((r) => r.data);
  };

  it('builds the view presentRun builds, for rows in every state', async () => {
    const rows: Array<Record<string, unknown>> = [
      {},
      { status: 'running', started_at: new Date('2026-01-02T03:04:05.678Z') },
      {
        status: 'needs_input',
        started_at: new Date('2026-01-02T03:04:05.000Z'),
        pending_action: JSON.stringify({ id: 'act_1', type: 'input', question: 'Name? "quoted" ünïcode' }),
        input_tokens: 12,
        output_tokens: 345,
        cost_micros: 1,
      },
      {
        status: 'succeeded',
        started_at: new Date('2026-01-02T03:04:05.001Z'),
        completed_at: new Date('2026-12-31T23:59:59.999Z'),
        output: JSON.stringify({ echo: { a: 1.5, b: [true, null], c: 'x' } }),
        cost_micros: 123456789,
        input_tokens: 2147483647,
      },
      {
        status: 'succeeded',
        completed_at: new Date('2026-03-04T05:06:07.089Z'),
        output: JSON.stringify('a plain string'),
        cost_micros: 15,
      },
      { status: 'succeeded', output: JSON.stringify(null), cost_micros: 999999 },
      { status: 'succeeded', output: JSON.stringify(42.25), cost_micros: 1000000 },
      {
        status: 'failed',
        error: JSON.stringify({ code: 'model_error', message: 'boom' }),
        completed_at: new Date('2026-03-04T05:06:07.000Z'),
        cost_micros: 7,
      },
      {
        status: 'needs_approval',
        pending_action: JSON.stringify({ id: 'a2', type: 'approval', tool: 't', args: { x: { y: [1] } } }),
      },
      { status: 'needs_review', pending_action: JSON.stringify({ id: 'a3', type: 'review', proposedOutput: [1, 2] }) },
      { status: 'cancelled', completed_at: new Date('2026-05-05T05:05:05.005Z'), cost_micros: 3000001 },
    ];
    for (const [i, set] of rows.entries()) {
      const runId = await newRun({ i, tag: 'view', deep: { list: [i, { k: 'v' }] } });
      const columns = Object.keys(set);
      if (columns.length) {
        await db().execute(`update runs set ${columns.map((c) => `${c} = ?`).join(', ')} where id = ?`, [
          ...Object.values(set),
          runId,
        ]);
      }
      const entityView = await viewOfEntity(runId);
      expect(await viewInSql(runId)).toEqual(entityView);
      // What `GET /v1/runs/{id}` answers: the plain row through presentRunRow, as JSON text.
      expect(JSON.parse(await findRunView(db(), workspaceId, runId))).toEqual(entityView);
    }
  });

  it('stores each step change with the view serializeStep builds of the step row', async () => {
    const runId = await newRun({ tag: 'steps' });
    const stepEvents = async (): Promise<unknown[]> =>
      (
        (await db().execute(`select data from run_events where run_id = ? and type = 'run.step' order by seq`, [
          runId,
        ])) as Array<{ data: unknown }>
      ).map((r) => r.data);
    const viewOfStep = async (index: number) =>
      serializeStep(await h.orm.em.fork().findOneOrFail(RunStep, { runId, index }));
    const writes: Array<[number, 'model' | 'tool', 'running' | 'succeeded' | 'failed', Record<string, unknown>]> = [
      [0, 'model', 'running', { modelId: 'x', nested: { a: [1, null, 'é "q"'] } }],
      [0, 'model', 'succeeded', { output: { text: 'hi' }, usage: { inputTokens: 3 } }],
      [1, 'tool', 'running', { tool: 'http_request', args: {} }],
      [1, 'tool', 'failed', { error: { code: 'tool_error', message: 'no url' } }],
    ];
    for (const [n, [index, type, status, detail]] of writes.entries()) {
      await writeStep(h.orm.em.fork(), runId, index, type, status, detail);
      const events = await stepEvents();
      expect(events).toHaveLength(n + 1);
      expect(events[n]).toEqual(await viewOfStep(index));
    }
  });

  it('follows the transition rules and stores the view of each change as its event', async () => {
    const runId = await newRun({ tag: 'rules' });
    const transition = (patch: TransitionPatch) => execution.transition(runId, patch);
    const check = async (events: number) => {
      const stored = await statusEvents(runId);
      expect(stored).toHaveLength(events);
      expect(stored[stored.length - 1]).toEqual(await viewOfEntity(runId));
      return viewOfEntity(runId);
    };
    const initial = (await statusEvents(runId)).length;

    const plan = await execution.startRun(runId);
    expect(plan).toMatchObject({ input: { text: 'hi' } });
    const running = await check(initial + 1);
    expect(running.status).toBe('running');
    expect(running.startedAt).not.toBeNull();
    await execution.startRun(runId); // a retried start changes nothing
    await check(initial + 1);

    const ask = { id: 'act_1', type: 'input' as const, question: 'name?' };
    await transition({ status: 'needs_input', pendingAction: ask });
    expect((await check(initial + 2)).pendingAction).toEqual(ask);
    await transition({ status: 'needs_input', pendingAction: ask }); // repeated: nothing
    await transition({ status: 'needs_input' }); // same status, pending action left: nothing
    await check(initial + 2);
    const again = { ...ask, id: 'act_2' };
    await transition({ status: 'needs_input', pendingAction: again }); // another question: a change
    expect((await check(initial + 3)).pendingAction).toEqual(again);

    await transition({ status: 'running', pendingAction: null });
    const resumed = await check(initial + 4);
    expect(resumed.pendingAction).toBeNull();
    expect(resumed.startedAt).toBe(running.startedAt); // set on the first running only

    await transition({ status: 'needs_input', pendingAction: { ...ask, id: 'act_3' } });
    await execution.finishRun(runId, { status: 'succeeded', output: { done: [1, 'two'] } });
    const done = await check(initial + 6);
    expect(done).toMatchObject({ status: 'succeeded', output: { done: [1, 'two'] }, pendingAction: null });
    expect(done.completedAt).not.toBeNull();

    // A finished run never changes, and is not settled twice.
    await transition({ status: 'failed', error: { code: 'x', message: 'y' } });
    await execution.finishRun(runId, { status: 'failed', error: { code: 'x', message: 'y' } });
    expect(await check(initial + 6)).toEqual(done);
    const charges = await db().execute(
      `select count(*)::int as n from ledger_entries where run_id = ? and kind = 'charge'`,
      [runId],
    );
    expect(charges[0].n).toBe(1);
  });

  it('writes an error from the patch and clears the pending action on a terminal status', async () => {
    const runId = await newRun();
    await execution.startRun(runId);
    await execution.transition(runId, { status: 'needs_approval', pendingAction: { id: 'p', type: 'approval' } });
    await execution.finishRun(runId, { status: 'failed', error: { code: 'model_error', message: 'no' } });
    const view = await viewOfEntity(runId);
    expect(view).toMatchObject({
      status: 'failed',
      error: { code: 'model_error', message: 'no' },
      pendingAction: null,
    });
    expect((await statusEvents(runId)).at(-1)).toEqual(view);
  });

  it('does not start a run that already ended', async () => {
    const runId = await newRun();
    await execution.finishRun(runId, { status: 'cancelled' });
    expect(await execution.startRun(runId)).toEqual({ endedAs: 'cancelled' });
    expect((await viewOfEntity(runId)).startedAt).toBeNull();
  });

  it('does not start a run whose agent version is gone, even when this process still has it cached', async () => {
    const agent = (await createAgent(h, auth, { presetId: 'general-assistant' })).id;
    const cached = (await createRun(h, auth, { agentId: agent, input: { text: 'a' } })).id;
    const orphan = (await createRun(h, auth, { agentId: agent, input: { text: 'b' } })).id;
    await execution.startRun(cached); // the version is now in this process's cache
    await db().execute(`delete from agent_versions where agent_id = ?`, [agent]);
    await expect(execution.startRun(orphan)).rejects.toThrow('agent version missing');
    expect((await viewOfEntity(orphan)).status).toBe('queued');
  });

  const money = async (runId: string) => {
    const [row] = await db().execute(
      `select r.cost_micros::float8 as cost, r.held_micros::float8 as held, r.status, w.credit_balance_micros::float8 as balance,
              (select coalesce(json_agg(json_build_object('kind', l.kind, 'amount', l.amount_micros::float8) order by l.kind), '[]')
                 from ledger_entries l where l.run_id = r.id and l.kind in ('charge', 'release')) as settled
         from runs r join workspaces w on w.id = r.workspace_id where r.id = ?`,
      [runId],
    );
    return row as {
      cost: number;
      held: number;
      status: string;
      balance: number;
      settled: Array<{ kind: string; amount: number }>;
    };
  };

  it('writes nothing when the row no longer has what an unlocked settlement was computed from', async () => {
    const runId = await newRun();
    await execution.startRun(runId);
    const before = await money(runId);
    const [run]: Array<{ id: string; workspaceId: string; apiKeyId: string | null }> = await db().execute(
      `select id, workspace_id as "workspaceId", api_key_id as "apiKeyId" from runs where id = ?`,
      [runId],
    );
    const written = await writeStatus(
      h.orm.em.fork(),
      runId,
      { status: 'succeeded', output: 1 },
      {
        settle: {
          run,
          settlement: { held: before.held, charged: 1 },
          from: { heldMicros: before.held, inputTokens: 999, outputTokens: 0, started: true },
        },
      },
    );
    expect(written).toMatchObject({ changed: false, settled: false, run: { status: 'running' } });
    expect(await money(runId)).toEqual(before);
    // The run then finishes as usual, settled once.
    await execution.finishRun(runId, { status: 'succeeded', output: 1 });
    const after = await money(runId);
    expect(after.status).toBe('succeeded');
    expect(after.settled.map((e) => e.kind)).toEqual(before.held > 0 ? ['charge', 'release'] : ['charge']);
    expect(after.balance).toBe(before.balance + before.held - after.cost);
  });

  it('settles a charge beyond the hold from the balance, under its lock, and never below 0', async () => {
    const runId = await newRun();
    await execution.startRun(runId);
    // A run from before holds, in a workspace with less left than the run's price: the charge is capped.
    await db().execute(`update runs set held_micros = 0 where id = ?`, [runId]);
    await db().execute(
      `update workspaces set credit_balance_micros = 400 where id = (select workspace_id from runs where id = ?)`,
      [runId],
    );
    await execution.finishRun(runId, { status: 'succeeded', output: 'x' });
    expect(await money(runId)).toEqual({
      cost: 400,
      held: 0,
      status: 'succeeded',
      balance: 0,
      settled: [{ kind: 'charge', amount: -400 }],
    });
    expect((await statusEvents(runId)).at(-1)).toEqual(await viewOfEntity(runId));
  });

  // Outside a transaction a status change runs as a prepared statement on a pooled connection
  // (executePrepared, db/preparedStatement.ts); inside one it must stay on the transaction's connection and roll back with it.
  it('writes a change in the caller transaction, undone with it, and on its own outside one', async () => {
    // (the test before this one emptied the workspace's balance)
    await db().execute(`update workspaces set credit_balance_micros = 100000000 where id = ?`, [workspaceId]);
    const runId = await newRun();
    const status = async () => (await db().execute(`select status from runs where id = ?`, [runId]))[0].status;
    await expect(
      h.orm.em.fork().transactional(async (tx) => {
        expect((await writeStatus(tx, runId, { status: 'running' }))!.changed).toBe(true);
        await writeStep(tx, runId, 0, 'model', 'running', { modelId: 'x' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await status()).toBe('queued');
    expect(await db().execute(`select 1 from run_steps where run_id = ?`, [runId])).toEqual([]);
    expect((await writeStatus(h.orm.em.fork(), runId, { status: 'running' }))!.changed).toBe(true);
    expect(await status()).toBe('running');
    expect((await statusEvents(runId)).at(-1)).toEqual(await viewOfEntity(runId));
  });
});
