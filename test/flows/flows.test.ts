import { randomUUID } from 'node:crypto';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';

type Headers = Record<string, string>;

// Flows' definitions through HTTP, without a worker: CRUD, validation with paths, templates, webhook
// tokens, workspace isolation, scopes and session roles (docs/api/flows.md).
describe('flows', () => {
  let h: Harness;
  let owner: Account;
  let manager: Headers;
  let agentId: string;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['flows:read', 'flows:manage', 'agents:read', 'agents:write']));
    agentId = (await createAgent(h, manager, {})).id;
  });
  afterAll(() => h.close());

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  const definition = (extra: Record<string, unknown> = {}) => ({
    name: 'Triage',
    trigger: { type: 'manual' },
    steps: [
      { name: 'triage', type: 'agent', agentId, input: { text: '{{trigger.text}}' } },
      { name: 'post', type: 'http', method: 'POST', url: 'https://example.com/x', body: '{{steps.triage.output}}' },
    ],
    ...extra,
  });

  it('creates, reads, lists, updates and deletes flows', async () => {
    const project = await ok(call('POST', '/v1/projects', manager, { name: 'Ops' }), 201);
    const created = await ok(
      call('POST', '/v1/flows', manager, definition({ description: 'd', projectId: project.id })),
      201,
    );
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Triage',
      description: 'd',
      projectId: project.id,
      status: 'active',
      trigger: { type: 'manual' },
      steps: definition().steps,
      webhookUrl: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await ok(call('GET', `/v1/flows/${created.id}`, manager), 200)).toEqual(created);
    const other = await ok(call('POST', '/v1/flows', manager, definition({ name: 'Other' })), 201);
    const all = await ok(call('GET', '/v1/flows?limit=1', manager), 200);
    expect(all.flows.map((f: any) => f.id)).toEqual([other.id]);
    const rest = await ok(call('GET', `/v1/flows?limit=1&cursor=${all.nextCursor}`, manager), 200);
    expect(rest.flows.map((f: any) => f.id)).toEqual([created.id]);
    const inProject = await ok(call('GET', `/v1/flows?projectId=${project.id}`, manager), 200);
    expect(inProject).toEqual({ flows: [created], nextCursor: null });

    const paused = await ok(call('PATCH', `/v1/flows/${created.id}`, manager, { status: 'paused', name: 'T2' }), 200);
    expect(paused).toMatchObject({ status: 'paused', name: 'T2', steps: created.steps });
    await error(call('POST', `/v1/flows/${created.id}/run`, manager, {}), 409, 'conflict');
    expect((await call('DELETE', `/v1/flows/${created.id}`, manager)).status).toBe(204);
    await error(call('GET', `/v1/flows/${created.id}`, manager), 404, 'not_found');
    await error(call('DELETE', `/v1/flows/${created.id}`, manager), 404, 'not_found');
    await error(call('GET', `/v1/flows/${created.id}/runs`, manager), 404, 'not_found');
  });

  it('refuses a definition with 400 naming the path of each problem', async () => {
    const other = await signUp(h);
    await setPlan(h, other.workspaceId, 'scale');
    const foreignAgent = (await createAgent(h, bearer(await createKey(h, other, ['agents:write'])), {})).id;
    const e = await error(
      call('POST', '/v1/flows', manager, {
        name: 'bad',
        trigger: { type: 'schedule', cron: '61 * * * *', timezone: 'Mars/Olympus' },
        steps: [
          { name: 'a', type: 'agent', agentId: foreignAgent, input: { x: '{{steps.later.output.y}}' } },
          { name: 'a', type: 'approval', message: 'ok {{steps.nobody.output}}' },
          { name: 'gate', type: 'condition', if: { path: 'trigger.__proto__', op: 'exists' }, else: 'missing' },
          { name: 'later', type: 'agent', agentId: randomUUID(), input: {} },
        ],
      }),
      400,
      'validation_error',
    );
    const paths = e.details.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(
      [
        'trigger.cron',
        'trigger.timezone',
        'steps.1.name',
        'steps.0.input.x',
        'steps.1.message',
        'steps.2.if.path',
        'steps.2.else',
        'steps.0.agentId',
        'steps.3.agentId',
      ].sort(),
    );
    for (const body of [
      {},
      { name: 'x', trigger: { type: 'manual' }, steps: [] },
      { name: 'x', trigger: { type: 'manual' }, steps: [{ name: 'a b', type: 'delay', seconds: 1 }] },
      { name: 'x', trigger: { type: 'sometimes' }, steps: [{ name: 'a', type: 'delay', seconds: 1 }] },
      { name: 'x', trigger: { type: 'manual' }, steps: [{ name: 'a', type: 'teleport' }] },
      { name: 'x', trigger: { type: 'manual', cron: '* * * * *' }, steps: [{ name: 'a', type: 'delay', seconds: 1 }] },
      { name: 'x', trigger: { type: 'schedule' }, steps: [{ name: 'a', type: 'delay', seconds: 1 }] },
      {
        name: 'x',
        trigger: { type: 'manual' },
        steps: [{ name: 'a', type: 'condition', if: { path: 'trigger.x', op: 'eq' }, else: 'a' }],
      },
      { templateId: 'nope', name: 'x' },
      { templateId: 'webhook-triage', name: 'x' },
    ]) {
      await error(call('POST', '/v1/flows', manager, body), 400, 'validation_error');
    }
    // save_output needs a live output connection of the workspace
    const saveOutput = await error(
      call('POST', '/v1/flows', manager, {
        name: 'x',
        trigger: { type: 'manual' },
        steps: [{ name: 's', type: 'save_output', connectionId: randomUUID(), from: 'trigger' }],
      }),
      400,
      'validation_error',
    );
    expect(saveOutput.details.issues).toEqual([
      { path: 'steps.0.connectionId', message: expect.stringContaining('Unknown output connection') },
    ]);
    const { id } = await ok(call('POST', '/v1/flows', manager, definition()), 201);
    await error(call('PATCH', `/v1/flows/${id}`, manager, {}), 400, 'validation_error');
    const patched = await error(
      call('PATCH', `/v1/flows/${id}`, manager, { trigger: { type: 'schedule', cron: 'every day' } }),
      400,
      'validation_error',
    );
    expect(patched.details.issues[0].path).toBe('trigger.cron');
    await error(call('POST', '/v1/flows', manager, definition({ projectId: randomUUID() })), 400, 'validation_error');
  });

  it('answers definitions with hostile template strings promptly, with 201 or the named 400', async () => {
    const hostile = [
      '{{' + ' '.repeat(100_000),
      '{{'.repeat(50_000),
      '{{ a' + ' '.repeat(100_000),
      '{{ trigger.x' + ' '.repeat(100_000) + '}',
    ];
    // a quadratic scan would take minutes over these (the scan's growth is held in templateScan.test.ts)
    const created = await Promise.all(
      hostile.map((body) =>
        ok(call('POST', '/v1/flows', manager, definition({ steps: [{ ...definition().steps[1], body }] })), 201),
      ),
    );
    const refused = await error(
      call('PATCH', `/v1/flows/${created[0].id}`, manager, {
        steps: [{ ...definition().steps[1], body: '{{ nope }}' + ' '.repeat(100_000) + '{{' }],
      }),
      400,
      'validation_error',
    );
    expect(created.map((f: any) => f.steps[0].body)).toEqual(hostile);
    expect(refused.details.issues.map((i: { path: string }) => i.path)).toEqual(['steps.0.body']);
  });

  it('serves at least five templates and creates flows from them', async () => {
    const { templates } = await ok(call('GET', '/v1/flow-templates', manager), 200);
    expect(templates.length).toBeGreaterThanOrEqual(5);
    expect(templates.map((t: any) => t.id)).toEqual(
      expect.arrayContaining(['webhook-triage', 'daily-report', 'approval-gated-http']),
    );
    const triage = await ok(
      call('POST', '/v1/flows', manager, { templateId: 'webhook-triage', name: 'Inbox', agentId }),
      201,
    );
    expect(triage).toMatchObject({
      name: 'Inbox',
      trigger: { type: 'webhook' },
      webhookUrl: expect.stringMatching(/\/hooks\/flows\/[A-Za-z0-9_-]+$/),
    });
    expect(triage.steps[0]).toMatchObject({ type: 'agent', agentId });
    const gated = await ok(
      call('POST', '/v1/flows', manager, { templateId: 'approval-gated-http', name: 'Gate' }),
      201,
    );
    expect(gated.steps.map((s: any) => s.type)).toEqual(['approval', 'http']);
    // the schedule template makes its Temporal Schedule
    const daily = await ok(
      call('POST', '/v1/flows', manager, { templateId: 'daily-report', name: 'Daily', agentId }),
      201,
    );
    const schedule = await h.temporal.client.schedule.getHandle(`flow-schedule-${daily.id}`).describe();
    expect(schedule.spec.calendars?.length).toBeGreaterThan(0);
    expect((await call('DELETE', `/v1/flows/${daily.id}`, manager)).status).toBe(204);
  });

  it('shows a webhook URL once, at creation and from webhook-token; only webhook flows have one', async () => {
    const flow = await ok(call('POST', '/v1/flows', manager, definition({ trigger: { type: 'webhook' } })), 201);
    expect(flow.webhookUrl).toMatch(/^http.*\/hooks\/flows\/.+/);
    expect((await ok(call('GET', `/v1/flows/${flow.id}`, manager), 200)).webhookUrl).toBeNull();
    const { webhookUrl } = await ok(call('POST', `/v1/flows/${flow.id}/webhook-token`, manager), 200);
    expect(webhookUrl).not.toBe(flow.webhookUrl);
    const manual = await ok(call('POST', '/v1/flows', manager, definition()), 201);
    await error(call('POST', `/v1/flows/${manual.id}/webhook-token`, manager), 409, 'conflict');
    const switched = await ok(call('PATCH', `/v1/flows/${manual.id}`, manager, { trigger: { type: 'webhook' } }), 200);
    expect(switched.webhookUrl).toMatch(/\/hooks\/flows\//);
  });

  it("answers 404 for another workspace's flows and flow runs", async () => {
    const flow = await ok(call('POST', '/v1/flows', manager, definition()), 201);
    const stranger = await signUp(h);
    const other = bearer(await createKey(h, stranger, ['flows:read', 'flows:manage']));
    await error(call('GET', `/v1/flows/${flow.id}`, other), 404, 'not_found');
    await error(call('PATCH', `/v1/flows/${flow.id}`, other, { name: 'x' }), 404, 'not_found');
    await error(call('DELETE', `/v1/flows/${flow.id}`, other), 404, 'not_found');
    await error(call('POST', `/v1/flows/${flow.id}/run`, other, {}), 404, 'not_found');
    await error(call('POST', `/v1/flows/${flow.id}/webhook-token`, other), 404, 'not_found');
    await error(call('GET', `/v1/flows/${flow.id}/runs`, other), 404, 'not_found');
    const run = await ok(call('POST', `/v1/flows/${flow.id}/run`, manager, {}), 202);
    await error(call('GET', `/v1/flow-runs/${run.id}`, other), 404, 'not_found');
    await error(call('POST', `/v1/flow-runs/${run.id}/approval`, other, { approved: true }), 404, 'not_found');
    await error(call('POST', `/v1/flow-runs/${run.id}/cancel`, other), 404, 'not_found');
    expect((await ok(call('GET', '/v1/flows', other), 200)).flows).toEqual([]);
    // a flow cannot use another workspace's agent either (the 400 above), and an unknown id is 404
    await error(call('GET', `/v1/flow-runs/${randomUUID()}`, manager), 404, 'not_found');
    await error(call('GET', '/v1/flow-runs/not-a-uuid', manager), 404, 'not_found');
    // no worker runs here: the queued run is cancelled on its row
    const cancelled = await ok(call('POST', `/v1/flow-runs/${run.id}/cancel`, manager), 202);
    expect(cancelled.status).toBe('cancelled');
  });

  it("lists the workspace's flow runs across its flows, by status, and no other workspace's", async () => {
    const stranger = await signUp(h);
    await setPlan(h, stranger.workspaceId, 'scale');
    const mine = bearer(await createKey(h, stranger, ['flows:read', 'flows:manage']));
    const approve = { name: 'A', trigger: { type: 'manual' }, steps: [{ name: 'ok', type: 'approval', message: 'm' }] };
    const first = await ok(call('POST', '/v1/flows', mine, approve), 201);
    const second = await ok(call('POST', '/v1/flows', mine, { ...approve, name: 'B' }), 201);
    const older = await ok(call('POST', `/v1/flows/${first.id}/run`, mine, {}), 202);
    const newer = await ok(call('POST', `/v1/flows/${second.id}/run`, mine, { input: { n: 1 } }), 202);
    // no worker runs here: the queued run is cancelled on its row
    await ok(call('POST', `/v1/flow-runs/${older.id}/cancel`, mine), 202);

    const all = await ok(call('GET', '/v1/flow-runs', mine), 200);
    expect(all.flowRuns.map((r: any) => [r.id, r.flowId, r.status])).toEqual([
      [newer.id, second.id, 'queued'],
      [older.id, first.id, 'cancelled'],
    ]);
    const page = await ok(call('GET', '/v1/flow-runs?limit=1', mine), 200);
    expect(page.flowRuns.map((r: any) => r.id)).toEqual([newer.id]);
    const rest = await ok(call('GET', `/v1/flow-runs?limit=1&cursor=${page.nextCursor}`, mine), 200);
    expect(rest).toMatchObject({ flowRuns: [{ id: older.id }], nextCursor: null });
    const cancelled = await ok(call('GET', '/v1/flow-runs?status=cancelled', mine), 200);
    expect(cancelled.flowRuns.map((r: any) => r.id)).toEqual([older.id]);
    expect((await ok(call('GET', '/v1/flow-runs?status=waiting_approval', mine), 200)).flowRuns).toEqual([]);
    const e = await error(call('GET', '/v1/flow-runs?status=paused', mine), 400, 'validation_error');
    expect(e.details.issues[0].path).toBe('status');

    expect((await ok(call('GET', '/v1/flow-runs', manager), 200)).flowRuns.map((r: any) => r.id)).not.toContain(
      newer.id,
    );
    const reader = bearer(await createKey(h, stranger, ['flows:read']));
    expect((await ok(call('GET', '/v1/flow-runs?status=queued', reader), 200)).flowRuns).toHaveLength(1);
    await error(call('GET', '/v1/flow-runs', bearer(await createKey(h, stranger, ['agents:read']))), 403, 'forbidden');
  });

  it('needs flows:read to read and flows:manage to change; session members read, admins manage', async () => {
    const flow = await ok(call('POST', '/v1/flows', manager, definition()), 201);
    const reader = bearer(await createKey(h, owner, ['flows:read']));
    const none = bearer(await createKey(h, owner, ['agents:read']));
    await ok(call('GET', `/v1/flows/${flow.id}`, reader), 200);
    await ok(call('GET', '/v1/flow-templates', reader), 200);
    await ok(call('GET', `/v1/flows/${flow.id}/runs`, reader), 200);
    await error(call('POST', '/v1/flows', reader, definition()), 403, 'forbidden');
    await error(call('PATCH', `/v1/flows/${flow.id}`, reader, { name: 'x' }), 403, 'forbidden');
    await error(call('POST', `/v1/flows/${flow.id}/run`, reader, {}), 403, 'forbidden');
    await error(call('POST', `/v1/flows/${flow.id}/webhook-token`, reader), 403, 'forbidden');
    await error(call('DELETE', `/v1/flows/${flow.id}`, reader), 403, 'forbidden');
    await error(call('GET', '/v1/flows', none), 403, 'forbidden');
    await error(call('GET', '/v1/flow-templates', none), 403, 'forbidden');

    const run = await ok(call('POST', `/v1/flows/${flow.id}/run`, manager, {}), 202);
    await error(call('POST', `/v1/flow-runs/${run.id}/cancel`, reader), 403, 'forbidden');
    await error(call('POST', `/v1/flow-runs/${run.id}/approval`, reader, { approved: true }), 403, 'forbidden');
    await ok(call('GET', `/v1/flow-runs/${run.id}`, reader), 200);

    const member = await signUp(h);
    const admin = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const as = (a: Account) => ({ cookie: a.cookie, 'x-workspace-id': owner.workspaceId });
    await ok(call('GET', `/v1/flows/${flow.id}`, as(member)), 200);
    await error(call('PATCH', `/v1/flows/${flow.id}`, as(member), { name: 'x' }), 403, 'forbidden');
    await error(call('POST', `/v1/flows/${flow.id}/run`, as(member), {}), 403, 'forbidden');
    await ok(call('PATCH', `/v1/flows/${flow.id}`, as(admin), { name: 'by admin' }), 200);
    await ok(call('POST', `/v1/flow-runs/${run.id}/cancel`, as(admin)), 202);
  });
});
