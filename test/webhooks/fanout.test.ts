import { WorkflowNotFoundError } from '@temporalio/client';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { runWorkflowId } from '../../workflows/messages';
import { webhookTaskQueue } from '../../workflows/taskQueues';
import { pollUntil } from '../helpers/poll';

// The fan-out records the deliveries of an announced status change (and makes their first attempts). A run makes its announcements'
// deliveries in its own workflow: no second workflow per announcement; the announcement of its end inside its last workflow task. A
// fan-out on the webhook queue must outlast a long database outage, so its retry policy (as Temporal UI shows it) has no attempt limit.
/** Every event of the run's closed workflow (it closes once its deliveries have ended). */
async function closedHistory(h: Harness, runId: string) {
  const handle = h.temporal.client.workflow.getHandle(runWorkflowId(runId));
  await handle.result();
  return (await handle.fetchHistory()).events ?? [];
}

/** Subscribes `url` to `run.succeeded` in the key's workspace; the subscription's id. */
async function subscribe(h: Harness, auth: Record<string, string>, url: string): Promise<string> {
  const res = await h.request('/v1/webhooks', {
    method: 'POST',
    headers: auth,
    json: { url, events: ['run.succeeded'], secret: 'whsec-0123456789abcdef' },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/**
 * A workspace on the scale plan with a key, a receiver (answering as `respond` decides) and a subscription of
 * it to `run.succeeded`.
 */
async function subscribedWorkspace(h: Harness, respond?: Parameters<typeof startReceiver>[0]) {
  const owner = await signUp(h);
  await setPlan(h, owner.workspaceId, 'scale');
  const auth = bearer(
    await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:read', 'agents:write']),
  );
  const rx = await startReceiver(respond);
  return { auth, rx, webhookId: await subscribe(h, auth, rx.url) };
}

describe('webhook fan-out', () => {
  let h: Harness;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  }, 120_000);
  afterAll(() => stop?.());

  it("makes the run's last announcement inside its last workflow task: no activity task, no fan-out workflow", async () => {
    const { auth, rx, webhookId } = await subscribedWorkspace(h);
    try {
      const echo = await createAgent(h, auth, { presetId: 'general-assistant' });
      const run = await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'the run.succeeded delivery');
      expect(JSON.parse(rx.received[0].raw.toString())).toMatchObject({ type: 'run.succeeded', run: { id: run.id } });

      const events = await closedHistory(h, run.id);
      // the whole run, its announcement's attempt included, in the one workflow task that started it
      expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toEqual([]);
      expect(events.filter((e) => e.workflowTaskCompletedEventAttributes)).toHaveLength(1);
      expect(events.at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();

      // logged as any first attempt
      const log = await h.request(`/v1/webhooks/${webhookId}/deliveries`, { headers: auth });
      const { deliveries } = (await log.json()) as {
        deliveries: Array<{ runId: string; status: string; attempts: unknown[] }>;
      };
      expect(deliveries).toEqual([
        expect.objectContaining({
          runId: run.id,
          status: 'succeeded',
          attempts: [expect.objectContaining({ statusCode: 200 })],
        }),
      ]);

      // No fan-out workflow of its own for the run's announcement (the id the announcer would give it).
      const fanout = h.temporal.client.workflow.getHandle(`webhook-fanout-${run.id}-run.succeeded-final`);
      await expect(fanout.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    } finally {
      await rx.close();
    }
  }, 60_000);

  it("announces a child run (a conversation's turn) through a fan-out workflow: its parent waits for its close", async () => {
    const { auth, rx } = await subscribedWorkspace(h);
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
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'the run.succeeded delivery');
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

// A worker makes at most SVC_WEBHOOK_INLINE_FANOUTS fan-outs inside workflow tasks at once (here 1): past that a
// run's fan-out goes to the webhook queue as an activity of its own, so receivers that hang hold no more of the
// runs worker's local-activity slots, and another workspace's delivery does not wait for them. So does a fan-out
// with more deliveries than the workspace's slots (here 1), which would go in waves.
describe('webhook fan-out with no inline fan-out to spare', () => {
  let h: Harness;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({
      allowPrivateWebhooks: true,
      webhookInlineFanOuts: 1,
      webhookWorkspaceSlots: 1,
    }));
  }, 120_000);
  afterAll(() => stop?.());

  /** A subscribed workspace (subscribedWorkspace) with an echo agent. */
  const echoWorkspace = async (respond?: Parameters<typeof startReceiver>[0]) => {
    const workspace = await subscribedWorkspace(h, respond);
    return { ...workspace, agent: await createAgent(h, workspace.auth, { presetId: 'general-assistant' }) };
  };

  it('hands the fan-out to the webhook queue, retrying the recording without an attempt limit, backing off to every 30 s', async () => {
    // the first workspace's receiver hangs on its attempt until the end of the test
    const hanging: Array<() => void> = [];
    const slow = await echoWorkspace((_n, _req, res) => hanging.push(() => res.end()));
    const fast = await echoWorkspace();
    try {
      await createRun(h, slow.auth, { agentId: slow.agent.id, input: {} });
      await pollUntil(20_000, () => slow.rx.received.length === 1, Boolean, 'the hanging attempt');

      const run = await createRun(h, fast.auth, { agentId: fast.agent.id, input: {} });
      await pollUntil(20_000, () => fast.rx.received.length === 1, Boolean, 'the run.succeeded delivery');
      // delivered while the other fan-out still holds the only inline one
      expect(hanging).toHaveLength(1);

      const events = await closedHistory(h, run.id);
      const scheduled = events
        .map((e) => e.activityTaskScheduledEventAttributes)
        .find((a) => a?.activityType?.name === 'fanOutFirstAttempts');
      expect(scheduled).toBeDefined();
      expect(scheduled!.taskQueue?.name).toBe(webhookTaskQueue(h.config.temporal.taskQueue));
      // 0 is "unlimited" in Temporal's retry policy.
      expect(scheduled!.retryPolicy?.maximumAttempts ?? 0).toBe(0);
      expect(Number(scheduled!.retryPolicy?.maximumInterval?.seconds?.toString())).toBe(30);
    } finally {
      for (const end of hanging) end();
      await slow.rx.close();
      await fast.rx.close();
    }
  }, 60_000);

  it('hands a fan-out of more deliveries than the workspace has slots to the webhook queue', async () => {
    const { auth, rx, agent } = await echoWorkspace();
    const second = await startReceiver();
    try {
      await subscribe(h, auth, second.url);
      const run = await createRun(h, auth, { agentId: agent.id, input: {} });
      await pollUntil(20_000, () => rx.received.length === 1 && second.received.length === 1, Boolean, 'both deliveries');

      const names = (await closedHistory(h, run.id)).map(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name,
      );
      expect(names).toContain('fanOutFirstAttempts');
    } finally {
      await rx.close();
      await second.close();
    }
  }, 60_000);
});
