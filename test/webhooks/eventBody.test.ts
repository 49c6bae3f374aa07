import { randomUUID } from 'node:crypto';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

// An event's body is stored once and sent to every subscriber with one `id` (docs/api/webhooks.md).
describe('webhook event bodies', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;
  let echo: { id: string };
  const secret = 'whsec-0123456789abcdef';

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  }, 120_000);
  afterAll(() => stop?.());

  beforeEach(async () => {
    const owner = await signUp(h);
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
    (await (await h.request(`/v1/webhooks/${subId}/deliveries`, { headers: auth })).json()).deliveries as Array<{
      id: string;
      status: string;
    }>;
  const failedDelivery = async (subId: string) =>
    (await pollUntil(
      10_000,
      async () => (await deliveries(subId))[0],
      (log) => log?.status === 'failed',
      'the failed delivery',
    ))!;

  it('sends one event to two subscriptions with identical bodies and one id, stored once; a redelivery sends the same bytes', async () => {
    const ok = await startReceiver();
    // fails the 3 attempts of the first round, takes the redelivery
    const flaky = await startReceiver((n, _req, res) => {
      res.statusCode = n < 3 ? 503 : 200;
      res.end();
    });
    try {
      const okSub = await subscribe(ok.url);
      const flakySub = await subscribe(flaky.url);
      const run = await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(30_000, () => ok.received.length === 1 && flaky.received.length === 3, Boolean, 'both deliveries');

      const body = ok.received[0].raw;
      expect(flaky.received.every((r) => r.raw.equals(body))).toBe(true);
      const parsed = JSON.parse(body.toString('utf8'));
      expect(parsed).toMatchObject({ type: 'run.succeeded', run: { id: run.id, status: 'succeeded' } });
      // the body id names the event; X-SVC-Delivery names each subscription's entry in its delivery log
      const [okLog] = await deliveries(okSub.id);
      const [flakyLog] = await deliveries(flakySub.id);
      expect(ok.received[0].headers['x-svc-delivery']).toBe(okLog.id);
      expect(flaky.received[0].headers['x-svc-delivery']).toBe(flakyLog.id);
      expect(new Set([okLog.id, flakyLog.id, parsed.id]).size).toBe(3);

      const conn = h.orm.em.getConnection();
      const events = await conn.execute(`select id, body from webhook_events where run_id = ?`, [run.id]);
      expect(events).toEqual([{ id: parsed.id, body: body.toString('utf8') }]);
      const rows = await conn.execute(`select body, event_id from webhook_deliveries where run_id = ?`, [run.id]);
      expect(rows).toEqual([
        { body: null, event_id: parsed.id },
        { body: null, event_id: parsed.id },
      ]);

      const log = await failedDelivery(flakySub.id);
      const again = await h.request(`/v1/webhooks/${flakySub.id}/deliveries/${log.id}/redeliver`, {
        method: 'POST',
        headers: auth,
      });
      expect(again.status).toBe(202);
      await pollUntil(20_000, () => flaky.received.length === 4, Boolean, 'the redelivery');
      expect(flaky.received[3].raw.equals(body)).toBe(true);
    } finally {
      await ok.close();
      await flaky.close();
    }
  }, 60_000);

  it('redelivers a delivery recorded before bodies were stored once with its own bytes and id', async () => {
    const rx = await startReceiver();
    try {
      const sub = await subscribe(rx.url);
      const [{ workspace_id: workspaceId }] = await h.orm.em
        .getConnection()
        .execute(`select workspace_id from webhook_subscriptions where id = ?`, [sub.id]);
      const id = randomUUID();
      const runId = randomUUID();
      // the shape the earlier code stored: the body on the row, its `id` the delivery id
      const legacy = JSON.stringify({
        id,
        type: 'run.succeeded',
        run: { id: runId, status: 'succeeded', output: { ok: true }, error: null },
      });
      await h.orm.em.getConnection().execute(
        `insert into webhook_deliveries (id, created_at, updated_at, subscription_id, workspace_id, run_id, type, event_key, body, status, attempts)
         values (?, now(), now(), ?, ?, ?, 'run.succeeded', 'final', ?, 'failed', '[]')`,
        [id, sub.id, workspaceId, runId, legacy],
      );
      const again = await h.request(`/v1/webhooks/${sub.id}/deliveries/${id}/redeliver`, {
        method: 'POST',
        headers: auth,
      });
      expect(again.status).toBe(202);
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'the redelivery');
      expect(rx.received[0].raw.toString('utf8')).toBe(legacy);
    } finally {
      await rx.close();
    }
  }, 60_000);
});
