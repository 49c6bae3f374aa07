import { runAdmin } from '../../scripts/admin';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { createFlow, runFlow, waitForFlowRun } from '../flows/helpers';
import { newApp } from '../apps/helpers';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;

// Every run passes one gate (docs/api/billing.md#who-pays): the runs the worker makes for a caller later (a
// tutor or copilot turn, a flow's agent step, an eval case) count against that caller's spend cap and
// unverified limit like POST /v1/runs; an app's anonymous submission is the workspace's and never overdraws.
describe('the run gate for every caller kind', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ unverifiedRunLimit: 3 }));
  }, 120_000);
  afterAll(async () => {
    await stop();
  });

  const SCOPES = ['agents:read', 'agents:write', 'runs:read', 'runs:write', 'flows:read', 'flows:manage'] as const;

  /** A workspace on plan scale, its owner, and a key of it capped at `capUsd`. */
  async function cappedKey(capUsd: number): Promise<{ owner: Account; auth: Headers; keyId: string }> {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const key = await createKey(h, owner, [...SCOPES]);
    const { apiKeys } = await ok(h.request('/v1/api-keys', { headers: { cookie: owner.cookie } }), 200);
    const keyId = apiKeys.find((k: { prefix: string }) => key.startsWith(k.prefix)).id;
    await ok(
      h.request(`/v1/api-keys/${keyId}/spend-cap`, {
        method: 'PUT',
        headers: { cookie: owner.cookie },
        json: { monthlySpendCapUsd: capUsd },
      }),
      200,
    );
    return { owner, auth: bearer(key), keyId };
  }

  const tutor = async (headers: Headers, agentId: string) =>
    (await ok(h.request('/v1/tutor/sessions', { method: 'POST', headers, json: { agentId, topic: 'tides' } }), 201))
      .id as string;
  const say = (headers: Headers, sessionId: string, text = 'hello') =>
    h.request(`/v1/tutor/sessions/${sessionId}/messages`, { method: 'POST', headers, json: { text } });
  const askCopilot = (headers: Headers, agentId: string) =>
    h.request(`/v1/agents/${agentId}/copilot`, { method: 'POST', headers, json: { message: 'What does it do?' } });
  const runCount = async (workspaceId: string) =>
    Number(
      (await h.orm.em.fork().execute('select count(*) as n from runs where workspace_id = ?', [workspaceId]))[0].n,
    );

  it('a key capped at 0 gets 402 billing.spend_cap_exceeded on a tutor message and makes no run', async () => {
    const { owner, auth } = await cappedKey(0);
    const agent = await createAgent(h, auth, {});
    const session = await tutor(auth, agent.id);
    const refused = await error(say(auth, session), 402, 'billing.spend_cap_exceeded');
    expect(refused.details).toEqual({ cap: 0, spent: 0 });
    expect(await runCount(owner.workspaceId)).toBe(0);
  }, 60_000);

  it('a key capped at 0 gets 402 billing.spend_cap_exceeded on a copilot message', async () => {
    const { owner, auth } = await cappedKey(0);
    const agent = await createAgent(h, auth, {});
    await error(askCopilot(auth, agent.id), 402, 'billing.spend_cap_exceeded');
    expect(await runCount(owner.workspaceId)).toBe(0);
  }, 60_000);

  it("a capped key's manual flow run fails at its agent step with billing.spend_cap_exceeded", async () => {
    const { owner, auth } = await cappedKey(0);
    const agent = await createAgent(h, auth, {});
    const flow = await createFlow(h, auth, { steps: [{ name: 'ask', type: 'agent', agentId: agent.id, input: {} }] });
    const started = await runFlow(h, auth, flow.id, {});
    const failed = await waitForFlowRun(h, auth, started.id, ['failed', 'succeeded']);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'billing.spend_cap_exceeded' } });
    expect(failed.steps[0]).toMatchObject({ status: 'failed', error: { code: 'billing.spend_cap_exceeded' } });
    expect(await runCount(owner.workspaceId)).toBe(0);
  }, 60_000);

  it("a capped key's eval run fails each case with billing.spend_cap_exceeded and makes no run", async () => {
    const { owner, auth } = await cappedKey(0);
    const agent = await createAgent(h, auth, { modelId: 'builtin/echo' });
    const created = await ok(
      h.request(`/v1/agents/${agent.id}/evals`, {
        method: 'POST',
        headers: auth,
        json: { name: 'capped', cases: [{ input: {}, expected: { echo: {} }, scorer: 'exact' }] },
      }),
      201,
    );
    const started = await ok(
      h.request(`/v1/evals/${created.id}/runs`, { method: 'POST', headers: auth, json: {} }),
      202,
    );
    const run = await pollUntil(
      50_000,
      () => ok(h.request(`/v1/eval-runs/${started.id}`, { headers: auth }), 200),
      (r) => r.status === 'failed' || r.status === 'succeeded',
      'the eval run to finish',
    );
    expect(run).toMatchObject({ status: 'failed', passed: 0 });
    expect(run.results).toEqual([
      expect.objectContaining({
        runId: null,
        passed: false,
        detail: expect.stringContaining('billing.spend_cap_exceeded'),
      }),
    ]);
    expect(await runCount(owner.workspaceId)).toBe(0);
  }, 60_000);

  it('N parallel tutor messages by a key whose cap admits two: two answered, the rest 402, spend within the cap', async () => {
    // builtin/echo holds and charges exactly 0.001 a run: a cap of 0.002 admits two
    const { owner, auth, keyId } = await cappedKey(0.002);
    const agent = await createAgent(h, auth, {});
    const sessions = await Promise.all(Array.from({ length: 6 }, () => tutor(auth, agent.id)));
    const answers = await Promise.all(sessions.map((s) => say(auth, s)));
    const codes = await Promise.all(
      answers.map(async (r) => (r.status === 200 ? '200' : `${r.status} ${(await r.json()).error.code}`)),
    );
    expect(codes.filter((c) => c === '200')).toHaveLength(2);
    expect(codes.filter((c) => c === '402 billing.spend_cap_exceeded')).toHaveLength(4);
    const { apiKeys } = await ok(h.request('/v1/api-keys', { headers: { cookie: owner.cookie } }), 200);
    expect(apiKeys.find((k: { id: string }) => k.id === keyId).spentThisMonthUsd).toBe(0.002);
    const [{ n }] = await h.orm.em.fork().execute('select count(*) as n from runs where api_key_id = ?', [keyId]);
    expect(Number(n)).toBe(2);
  }, 90_000);

  it('an unverified user past SVC_UNVERIFIED_RUN_LIMIT gets 403 on tutor and copilot messages', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const session = { cookie: owner.cookie };
    const agent = await createAgent(h, session, {});
    const tutoring = await tutor(session, agent.id);
    for (let i = 0; i < 3; i++) await ok(say(session, tutoring, `message ${i}`), 200);
    const over = await error(say(session, tutoring, 'one more'), 403, 'auth.email_verification_required');
    expect(over.details).toEqual({ limit: 3 });
    await error(askCopilot(session, agent.id), 403, 'auth.email_verification_required');
    const [{ n }] = await h.orm.em.fork().execute('select count(*) as n from runs where user_id = ?', [owner.userId]);
    expect(Number(n)).toBe(3);
    // a key of the same workspace is not limited, and neither is the user once verified
    const keyed = bearer(await createKey(h, owner, [...SCOPES]));
    await ok(say(keyed, await tutor(keyed, agent.id)), 200);
    await runAdmin(h.orm, ['user:verify', owner.email]);
    await ok(say(session, tutoring, 'verified now'), 200);
  }, 90_000);

  it('an app submission is charged to the workspace and never overdraws: 402 billing.insufficient_credits when empty', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['apps:manage', 'agents:write', 'runs:read']));
    const agentId = (await createAgent(h, auth, {})).id;
    const app = await newApp(h, auth, agentId);
    await ok(h.request(`/v1/apps/${app.id}/publish`, { method: 'POST', headers: auth }), 200);
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '0.001']);
    const submit = () => h.request(`/apps/${app.slug}/runs`, { method: 'POST', json: { topic: 'tides' } });
    const answers = await Promise.all(Array.from({ length: 4 }, submit));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 402, 402, 402]);
    const refused = await answers.find((r) => r.status === 402)!.json();
    expect(refused.error.code).toBe('billing.insufficient_credits');
    expect(refused.error.details?.available).toBeUndefined();
    const [run] = await h.orm.em
      .fork()
      .execute('select api_key_id, user_id from runs where workspace_id = ?', [owner.workspaceId]);
    expect(run).toEqual({ api_key_id: null, user_id: null });
    const [{ balance }] = await h.orm.em
      .fork()
      .execute('select credit_balance_micros as balance from workspaces where id = ?', [owner.workspaceId]);
    expect(Number(balance)).toBe(0);
  }, 60_000);
});
