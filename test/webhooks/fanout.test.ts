import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { sleep, startReceiver, until } from '../helpers/receiver';
import { createAgent, createRun } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

// The fan-out records the deliveries of an announced status change (and makes their first attempts); that bookkeeping must outlast a long
// database outage, so its retry policy (as Temporal UI shows it on the activity) has no attempt limit.
describe('webhook fan-out', () => {
  let h: Harness;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  }, 120_000);
  afterAll(() => stop?.());

  it('retries recording the deliveries without an attempt limit, backing off to every 30 s', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['webhooks:manage', 'runs:write', 'agents:write']));
    const echo = await createAgent(h, auth, { presetId: 'general-assistant' });
    const rx = await startReceiver();
    try {
      const res = await h.request('/v1/webhooks', {
        method: 'POST',
        headers: auth,
        json: { url: rx.url, events: ['run.succeeded'], secret: 'whsec-0123456789abcdef' },
      });
      expect(res.status).toBe(201);
      await createRun(h, auth, { agentId: echo.id, input: {} });
      await until(() => rx.received.length === 1, 20_000, 'the run.succeeded delivery');

      const query = `WorkflowType = 'webhookFanoutWorkflow' AND TaskQueue = '${h.config.temporal.taskQueue}'`;
      let workflowId: string | undefined;
      for (const deadline = Date.now() + 20_000; !workflowId && Date.now() < deadline; await sleep(200)) {
        for await (const wf of h.temporal.client.workflow.list({ query })) workflowId = wf.workflowId;
      }
      expect(workflowId).toBeDefined();
      const history = await h.temporal.client.workflow.getHandle(workflowId!).fetchHistory();
      const scheduled = (history.events ?? [])
        .map((e) => e.activityTaskScheduledEventAttributes)
        .find((a) => a?.activityType?.name === 'fanOutFirstAttempts');
      expect(scheduled).toBeDefined();
      // 0 is "unlimited" in Temporal's retry policy.
      expect(scheduled!.retryPolicy?.maximumAttempts ?? 0).toBe(0);
      expect(Number(scheduled!.retryPolicy?.maximumInterval?.seconds?.toString())).toBe(30);
    } finally {
      await rx.close();
    }
  }, 60_000);
});
