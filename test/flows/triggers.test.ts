import { ScheduleNotFoundError } from '@temporalio/client';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { bearer, createKey, freshRateWindow, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { startRunStack } from '../helpers/worker';
import { createFlow, waitForFlowRun } from './helpers';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;

// Webhook and schedule triggers (docs/api/flows.md#webhook, #schedule), with a real worker.
describe('flow triggers', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let account: Account;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateEgress: true }));
    account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    auth = bearer(await createKey(h, account, ['flows:read', 'flows:manage']));
  }, 120_000);
  afterAll(() => stop());

  const hookPath = (webhookUrl: string) => new URL(webhookUrl).pathname;
  const hook = (path: string, json: unknown, headers: Headers = {}) =>
    h.request(path, { method: 'POST', json, headers });
  const steps = [{ name: 'check', type: 'condition', if: { path: 'trigger.go', op: 'exists' }, else: 'stop' }];

  it('a webhook takes any JSON without a credential and starts a flow run with it as the trigger data', async () => {
    const flow = await createFlow(h, auth, { trigger: { type: 'webhook' }, steps });
    const path = hookPath(flow.webhookUrl);
    const { flowRunId } = await ok(hook(path, { go: true, nested: { a: [1, 2] } }), 202);
    const done = await waitForFlowRun(h, auth, flowRunId, ['succeeded', 'failed']);
    expect(done).toMatchObject({
      flowId: flow.id,
      status: 'succeeded',
      trigger: { type: 'webhook', input: { go: true, nested: { a: [1, 2] } } },
    });
    const list = await ok(hook(path, [1, 'two']), 202);
    expect((await waitForFlowRun(h, auth, list.flowRunId, 'succeeded')).trigger.input).toEqual({ body: [1, 'two'] });
    const empty = await ok(h.request(path, { method: 'POST' }), 202);
    expect((await waitForFlowRun(h, auth, empty.flowRunId, 'succeeded')).trigger.input).toEqual({ body: null });
    // the body limit and the media type hold here too
    await error(hook(path, { big: 'x'.repeat(h.config.maxJsonBytes) }), 413, 'payload_too_large');
    await error(
      h.request(path, { method: 'POST', body: 'a=1', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    await error(
      h.request(path, { method: 'POST', body: '{nope', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
  });

  it('a new token replaces the old at once; unknown tokens are 404; a paused flow is 409', async () => {
    const flow = await createFlow(h, auth, { trigger: { type: 'webhook' }, steps });
    const old = hookPath(flow.webhookUrl);
    const { webhookUrl } = await ok(
      h.request(`/v1/flows/${flow.id}/webhook-token`, { method: 'POST', headers: auth }),
      200,
    );
    await error(hook(old, {}), 404, 'not_found');
    await ok(hook(hookPath(webhookUrl), {}), 202);
    await error(hook('/hooks/flows/not-a-token', {}), 404, 'not_found');
    await ok(h.request(`/v1/flows/${flow.id}`, { method: 'PATCH', headers: auth, json: { status: 'paused' } }), 200);
    await error(hook(hookPath(webhookUrl), {}), 409, 'conflict');
    // a flow whose trigger moved off the webhook has no token any more
    await ok(
      h.request(`/v1/flows/${flow.id}`, {
        method: 'PATCH',
        headers: auth,
        json: { status: 'active', trigger: { type: 'manual' } },
      }),
      200,
    );
    await error(hook(hookPath(webhookUrl), {}), 404, 'not_found');
  });

  it('is rate-limited per token like a free-trial key (30 a minute)', async () => {
    const flow = await createFlow(h, auth, { trigger: { type: 'webhook' }, steps });
    const path = hookPath(flow.webhookUrl);
    await freshRateWindow(20);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await hook(path, { i })).status);
    expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
    const limited = await hook(path, {});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await limited.json()).error).toMatchObject({ code: 'rate_limited', message: 'Rate limit exceeded' });
    expect(statuses[30]).toBe(429);
  }, 60_000);

  it('a schedule trigger is a Temporal Schedule made, paused, fired and deleted with its flow', async () => {
    const flow = await createFlow(h, auth, {
      trigger: { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
      steps: [{ name: 'wait', type: 'delay', seconds: 1 }],
    });
    const handle = h.temporal.client.schedule.getHandle(`flow-schedule-${flow.id}`);
    const made = await handle.describe();
    expect(made.state.paused).toBe(false);
    expect(made.spec.timezone).toBe('Europe/Paris');
    expect(made.action).toMatchObject({ type: 'startWorkflow', workflowType: 'flowScheduleWorkflow' });

    await ok(h.request(`/v1/flows/${flow.id}`, { method: 'PATCH', headers: auth, json: { status: 'paused' } }), 200);
    expect((await handle.describe()).state.paused).toBe(true);
    await ok(
      h.request(`/v1/flows/${flow.id}`, {
        method: 'PATCH',
        headers: auth,
        json: { status: 'active', trigger: { type: 'schedule', cron: '*/5 * * * *' } },
      }),
      200,
    );
    const changed = await handle.describe();
    expect(changed.state.paused).toBe(false);
    expect(changed.spec.timezone).toBe('UTC');

    // the schedule fires (now, rather than in five minutes): its action makes a flow run that runs
    await handle.trigger();
    const flowRuns = async (): Promise<any[]> =>
      (await ok(h.request(`/v1/flows/${flow.id}/runs`, { headers: auth }), 200)).flowRuns;
    const runs = await pollUntil(10_000, flowRuns, (r) => r.length > 0, 'the triggered flow run');
    expect(runs).toHaveLength(1);
    const done = await waitForFlowRun(h, auth, runs[0].id, ['succeeded', 'failed']);
    expect(done).toMatchObject({
      status: 'succeeded',
      trigger: { type: 'schedule', input: { scheduledAt: expect.any(String) } },
    });
    const wf = await h.temporal.client.workflow.getHandle(`flow-${done.id}`).describe();
    expect(wf.typedSearchAttributes.get(SvcWorkspaceId)).toBe(account.workspaceId);

    // and it fires by the clock: with its spec made an interval of 2 s (the product takes crons, a minute at
    // the finest), a tick arrives within seconds and makes another flow run
    await handle.update((prev) => ({ ...prev, spec: { intervals: [{ every: '2s' }] } }));
    const ticked = await pollUntil(15_000, flowRuns, (r) => r.length >= 2, 'a flow run of a tick');
    expect(ticked.length).toBeGreaterThanOrEqual(2);
    expect(ticked[0].trigger.type).toBe('schedule');

    // a manual trigger removes the schedule; so does deleting a schedule flow
    await ok(
      h.request(`/v1/flows/${flow.id}`, { method: 'PATCH', headers: auth, json: { trigger: { type: 'manual' } } }),
      200,
    );
    await expect(handle.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    const other = await createFlow(h, auth, { trigger: { type: 'schedule', cron: '@daily' }, steps });
    const otherHandle = h.temporal.client.schedule.getHandle(`flow-schedule-${other.id}`);
    await otherHandle.describe();
    expect((await h.request(`/v1/flows/${other.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    await expect(otherHandle.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  }, 60_000);
});
