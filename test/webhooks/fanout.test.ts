import { WorkflowNotFoundError } from '@temporalio/client';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver, until } from '../helpers/receiver';
import { createAgent, createRun } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { runWorkflowId } from '../../workflows/messages';
import { webhookTaskQueue } from '../../workflows/taskQueues';

// The fan-out records the deliveries of an announced status change (and makes their first attempts); that bookkeeping must outlast a long
// database outage, so its retry policy (as Temporal UI shows it on the activity) has no attempt limit. A run makes its announcements'
// deliveries in its own workflow, on the webhook task queue: no second workflow per announcement.
describe('webhook fan-out', () => {
  let h: Harness;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  }, 120_000);
  afterAll(() => stop?.());

  /** A workspace on the scale plan with a key, a receiver and a subscription of it to `run.succeeded`. */
  const subscribedWorkspace = async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(
      await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:read', 'agents:write']),
    );
    const rx = await startReceiver();
    const res = await h.request('/v1/webhooks', {
      method: 'POST',
      headers: auth,
      json: { url: rx.url, events: ['run.succeeded'], secret: 'whsec-0123456789abcdef' },
    });
    expect(res.status).toBe(201);
    return { auth, rx };
  };

  it('runs in the run workflow on the webhook queue, retrying the recording without an attempt limit, backing off to every 30 s', async () => {
    const { auth, rx } = await subscribedWorkspace();
    try {
      const echo = await createAgent(h, auth, { presetId: 'general-assistant' });
      const run = await createRun(h, auth, { agentId: echo.id, input: {} });
      await until(() => rx.received.length === 1, 20_000, 'the run.succeeded delivery');

      const handle = h.temporal.client.workflow.getHandle(runWorkflowId(run.id));
      // The workflow closes once its deliveries have ended.
      await handle.result();
      const history = await handle.fetchHistory();
      const scheduled = (history.events ?? [])
        .map((e) => e.activityTaskScheduledEventAttributes)
        .find((a) => a?.activityType?.name === 'fanOutFirstAttempts');
      expect(scheduled).toBeDefined();
      expect(scheduled!.taskQueue?.name).toBe(webhookTaskQueue(h.config.temporal.taskQueue));
      // 0 is "unlimited" in Temporal's retry policy.
      expect(scheduled!.retryPolicy?.maximumAttempts ?? 0).toBe(0);
      expect(Number(scheduled!.retryPolicy?.maximumInterval?.seconds?.toString())).toBe(30);

      // No fan-out workflow of its own for the run's announcement (the id the announcer would give it).
      const fanout = h.temporal.client.workflow.getHandle(`webhook-fanout-${run.id}-run.succeeded-final`);
      await expect(fanout.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    } finally {
      await rx.close();
    }
  }, 60_000);

  it("announces a child run (a conversation's turn) through a fan-out workflow: its parent waits for its close", async () => {
    const { auth, rx } = await subscribedWorkspace();
    try {
      const agent = await createAgent(h, auth, {});
      const session = await h.request('/v1/tutor/sessions', {
        method: 'POST',
        headers: auth,
        json: { agentId: agent.id, topic: 'fan-out' },
      });
      expect(session.status).toBe(201);
      const { id } = (await session.json()) as { id: string };
      const sent = await h.request(`/v1/tutor/sessions/${id}/messages`, {
        method: 'POST',
        headers: auth,
        json: { text: 'hello' },
      });
      expect(sent.status).toBe(200);
      const { runId } = (await sent.json()) as { runId: string };
      await until(() => rx.received.length === 1, 20_000, 'the run.succeeded delivery');
      const fanout = h.temporal.client.workflow.getHandle(`webhook-fanout-${runId}-run.succeeded-final`);
      expect((await fanout.describe()).type).toBe('webhookFanoutWorkflow');
      const history = await h.temporal.client.workflow.getHandle(runWorkflowId(runId)).fetchHistory();
      const names = (history.events ?? []).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
      expect(names).not.toContain('fanOutFirstAttempts');
    } finally {
      await rx.close();
    }
  }, 60_000);
});
