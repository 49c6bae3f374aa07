import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

// One workspace's flood of deliveries to receivers that never answer must not starve another workspace's
// delivery (docs/api/webhooks.md, "Fairness"): a workspace holds at most SVC_WEBHOOK_WORKSPACE_SLOTS of the
// worker's SVC_WEBHOOK_CONCURRENCY delivery slots, and its waiting deliveries hold none.
describe('webhook delivery fairness between workspaces', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  const secret = 'whsec-0123456789abcdef';
  const slots = 20;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({
      allowPrivateWebhooks: true,
      webhookConcurrency: slots,
      webhookWorkspaceSlots: 8,
    }));
  }, 120_000);
  afterAll(() => stop?.());

  const workspace = async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:write']));
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const subscribe = async (url: string) => {
      const res = await h.request('/v1/webhooks', {
        method: 'POST',
        headers: auth,
        json: { url, events: ['run.succeeded'], secret },
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string };
    };
    return { auth, agent, subscribe };
  };

  it("delays another workspace's delivery by less than 1 s while one floods the queue with hanging receivers", async () => {
    // 25 receivers that take the request and never answer (each attempt then holds its slot for 9-10 s)
    const hanging = await Promise.all(Array.from({ length: 25 }, () => startReceiver(() => undefined)));
    const rx = await startReceiver();
    try {
      const flood = await workspace();
      for (const r of hanging) await flood.subscribe(r.url);
      const quiet = await workspace();
      const sub = await quiet.subscribe(rx.url);

      // 2 events × 25 subscriptions: 50 deliveries, more than the worker's 20 slots
      await createRun(h, flood.auth, { agentId: flood.agent.id, input: {} });
      await createRun(h, flood.auth, { agentId: flood.agent.id, input: {} });
      // distinct deliveries that reached a receiver (a delivery's later attempts carry the same X-SVC-Delivery)
      const inFlight = () => new Set(hanging.flatMap((r) => r.received.map((m) => m.headers['x-svc-delivery']))).size;
      await pollUntil(30_000, () => inFlight() >= 8, Boolean, 'the flood taking slots');

      await createRun(h, quiet.auth, { agentId: quiet.agent.id, input: {} });
      await pollUntil(30_000, () => rx.received.length === 1, Boolean, "the quiet workspace's delivery");
      const [log] = (await (await h.request(`/v1/webhooks/${sub.id}/deliveries`, { headers: quiet.auth })).json())
        .deliveries as Array<{ createdAt: string }>;
      // from the moment the delivery was recorded to the moment its receiver had it
      expect(rx.received[0].at - Date.parse(log.createdAt)).toBeLessThan(1000);
      // the flood still waits its turn: no more than its share of slots went out
      expect(inFlight()).toBeLessThanOrEqual(8);
    } finally {
      await Promise.all([...hanging, rx].map((r) => r.close()));
    }
  }, 90_000);
});
