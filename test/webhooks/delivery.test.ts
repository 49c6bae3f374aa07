import { createHmac, timingSafeEqual } from 'node:crypto';
import { sweepUnannouncedRuns } from '../../domain/runs/recovery';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { deliveryWorkflowId } from '../../domain/webhooks/dispatch';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { runWorkflowId } from '../../workflows/messages';
import { pollUntil } from '../helpers/poll';

// The delivery rules of docs/api/webhooks.md, with real receivers on 127.0.0.1.
describe('webhook deliveries', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;
  let workspaceId: string;
  let echo: { id: string };
  const secret = 'whsec-0123456789abcdef';

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  }, 120_000);
  afterAll(() => stop?.());

  // each test gets a workspace of its own, so only its own subscriptions receive its runs
  beforeEach(async () => {
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(
      await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:write', 'runner:run']),
    );
    echo = await createAgent(h, auth, { presetId: 'general-assistant' });
  });

  const subscribe = async (url: string, events: string[]) => {
    const res = await h.request('/v1/webhooks', { method: 'POST', headers: auth, json: { url, events, secret } });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string };
  };
  const deliveries = async (subId: string) =>
    (await (await h.request(`/v1/webhooks/${subId}/deliveries`, { headers: auth })).json()).deliveries;
  /**
   * Resolves once the run's workflow has closed. The run workflow delivers its own announcements and closes
   * only after their last attempt, so after this no attempt can still come: "nothing more" is asserted on
   * that, not after a guessed pause.
   */
  const runClosed = (runId: string) =>
    h.temporal.client.workflow
      .getHandle(runWorkflowId(runId))
      .result()
      .catch(() => undefined);
  type Log = { id: string; status: string; attempts: unknown[] };
  const logWhen = async (subId: string, done: (log: Log | undefined) => boolean) =>
    (await pollUntil(20_000, async () => (await deliveries(subId))[0] as Log | undefined, done, 'the delivery log'))!;

  it('signs the exact body bytes; sends only subscribed kinds; nothing for queued→running', async () => {
    const all = await startReceiver();
    const onlyFailed = await startReceiver();
    try {
      await subscribe(all.url, [
        'run.succeeded',
        'run.failed',
        'run.needs_input',
        'run.needs_approval',
        'run.needs_review',
      ]);
      await subscribe(onlyFailed.url, ['run.failed']);
      const scripted = await createAgent(h, auth, { presetId: 'scripted' });
      const run = await createRun(h, auth, {
        agentId: scripted.id,
        input: { script: [{ ask: 'q?' }, { final: { ok: true } }] },
      });
      await waitForStatus(h, auth, run.id, 'needs_input');
      await pollUntil(20_000, () => all.received.length === 1, Boolean, 'needs_input delivery');
      await h.request(`/v1/runs/${run.id}/input`, { method: 'POST', headers: auth, json: { answer: 'a' } });
      await waitForStatus(h, auth, run.id, 'succeeded');
      await pollUntil(20_000, () => all.received.length === 2, Boolean, 'succeeded delivery');
      await runClosed(run.id);
      expect(all.received).toHaveLength(2);
      expect(onlyFailed.received).toHaveLength(0);

      const bodies = all.received.map((r) => JSON.parse(r.raw.toString('utf8')));
      expect(bodies.map((b) => b.type)).toEqual(['run.needs_input', 'run.succeeded']);
      expect(bodies[1]).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'run.succeeded',
        run: { id: run.id, status: 'succeeded', output: { ok: true }, error: null },
      });
      expect(bodies[0].id).not.toBe(bodies[1].id);
      for (const r of all.received) {
        // an independent verification over the raw bytes, as a receiver does it (docs/api/webhooks.md)
        const header = String(r.headers['x-svc-signature']);
        const t = /(?:^|,)t=(\d+)/.exec(header)![1];
        const v1 = /(?:^|,)v1=([0-9a-f]+)/.exec(header)![1];
        const expected = createHmac('sha256', secret)
          .update(Buffer.concat([Buffer.from(`${t}.`), r.raw]))
          .digest();
        expect(timingSafeEqual(Buffer.from(v1, 'hex'), expected)).toBe(true);
        expect(Math.abs(Number(t) - r.at / 1000)).toBeLessThan(300);
        expect(r.headers['content-type']).toBe('application/json');
      }
    } finally {
      await all.close();
      await onlyFailed.close();
    }
  });

  // the spacing of the attempts (1 s, then 2 s) is asserted on the workflow clock: test/workflows/webhookDelivery.test.ts
  it('retries a failing receiver: fail, fail, succeed = exactly 3 attempts, same bytes', async () => {
    const rx = await startReceiver((n, _req, res) => {
      res.statusCode = n < 2 ? 500 : 204;
      res.end();
    });
    try {
      const sub = await subscribe(rx.url, ['run.succeeded']);
      const run = await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(30_000, () => rx.received.length === 3, Boolean, '3 attempts');
      await runClosed(run.id);
      expect(rx.received).toHaveLength(3);
      const [a, b, c] = rx.received;
      expect(b.raw.equals(a.raw) && c.raw.equals(a.raw)).toBe(true);
      const [log] = await deliveries(sub.id);
      expect(log).toMatchObject({ type: 'run.succeeded', runId: run.id, status: 'succeeded' });
      expect(log.attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([500, 500, 204]);
      // the attempts name the delivery of the log; the body id is the event's, the same on all three
      expect([a, b, c].map((r) => r.headers['x-svc-delivery'])).toEqual([log.id, log.id, log.id]);
      expect(JSON.parse(a.raw.toString()).id).not.toBe(log.id);
    } finally {
      await rx.close();
    }
  });

  it('gives up after 3 attempts, logs the failure, and redelivers a failed delivery with the same id', async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 503;
      res.end();
    });
    try {
      const sub = await subscribe(rx.url, ['run.succeeded']);
      const run = await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(30_000, () => rx.received.length === 3, Boolean, '3 attempts');
      let log = await logWhen(sub.id, (l) => l?.status === 'failed');
      expect(log.attempts).toHaveLength(3);
      await runClosed(run.id);
      expect(rx.received).toHaveLength(3);

      const again = await h.request(`/v1/webhooks/${sub.id}/deliveries/${log.id}/redeliver`, {
        method: 'POST',
        headers: auth,
      });
      expect(again.status).toBe(202);
      const twice = await h.request(`/v1/webhooks/${sub.id}/deliveries/${log.id}/redeliver`, {
        method: 'POST',
        headers: auth,
      });
      expect(twice.status).toBe(409);
      await pollUntil(30_000, () => rx.received.length === 6, Boolean, '3 more attempts');
      expect(rx.received.every((r) => r.raw.equals(rx.received[0].raw))).toBe(true);
      log = await logWhen(sub.id, (l) => l?.status === 'failed' && l.attempts.length === 6);
      expect(log.attempts).toHaveLength(6);
    } finally {
      await rx.close();
    }
  });

  it('redelivers a succeeded delivery too (a receiver that lost it asks again): the same bytes once more', async () => {
    const rx = await startReceiver();
    try {
      const sub = await subscribe(rx.url, ['run.succeeded']);
      await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'the delivery');
      let log = await logWhen(sub.id, (l) => l?.status === 'succeeded');
      const again = await h.request(`/v1/webhooks/${sub.id}/deliveries/${log.id}/redeliver`, {
        method: 'POST',
        headers: auth,
      });
      expect(again.status).toBe(202);
      await pollUntil(20_000, () => rx.received.length === 2, Boolean, 'the redelivery');
      expect(rx.received[1].raw.equals(rx.received[0].raw)).toBe(true);
      // the redelivery's workflow is found in Temporal UI by workspace
      const described = await h.temporal.client.workflow.getHandle(deliveryWorkflowId(log.id, 1)).describe();
      expect(described.typedSearchAttributes.get(SvcWorkspaceId)).toBe(workspaceId);
      log = await logWhen(sub.id, (l) => l?.status === 'succeeded' && l.attempts.length === 2);
      expect(log).toMatchObject({ status: 'succeeded', attempts: [expect.anything(), expect.anything()] });
    } finally {
      await rx.close();
    }
  });

  it('never follows a redirect: a 302 is a failed attempt and its target receives nothing', async () => {
    const target = await startReceiver();
    const rx = await startReceiver((_n, _req, res) => {
      res.writeHead(302, { Location: target.url });
      res.end();
    });
    try {
      await subscribe(rx.url, ['run.succeeded']);
      const run = await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(30_000, () => rx.received.length === 3, Boolean, '3 attempts');
      await runClosed(run.id);
      expect(target.received).toHaveLength(0);
    } finally {
      await rx.close();
      await target.close();
    }
  });

  it('stops retrying when the subscription is deleted mid-retry', async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 500;
      res.end();
    });
    try {
      const sub = await subscribe(rx.url, ['run.succeeded']);
      const run = await createRun(h, auth, { agentId: echo.id, input: {} });
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'first attempt');
      expect((await h.request(`/v1/webhooks/${sub.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
      await runClosed(run.id);
      expect(rx.received).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });

  it('never delays the run: the run finishes while a receiver still hangs on its first attempt', async () => {
    let answered = false;
    const rx = await startReceiver((_n, _req, res) => {
      setTimeout(() => {
        answered = true;
        res.end();
      }, 6000).unref();
    });
    try {
      await subscribe(rx.url, ['run.needs_input', 'run.succeeded']);
      const scripted = await createAgent(h, auth, { presetId: 'scripted' });
      const run = await createRun(h, auth, { agentId: scripted.id, input: { script: [{ ask: 'q' }] } });
      await waitForStatus(h, auth, run.id, 'needs_input');
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'first delivery');
      await h.request(`/v1/runs/${run.id}/input`, { method: 'POST', headers: auth, json: { answer: 1 } });
      await waitForStatus(h, auth, run.id, 'succeeded');
      expect(answered).toBe(false);
    } finally {
      await rx.close();
    }
  });

  it('announces runs recorded by a local runner like any other', async () => {
    const rx = await startReceiver();
    try {
      await subscribe(rx.url, ['run.failed']);
      const res = await h.request('/v1/local-runs', {
        method: 'POST',
        headers: auth,
        json: {
          agentId: echo.id,
          runs: [
            {
              status: 'succeeded',
              output: { a: 1 },
              startedAt: '2026-11-01T10:00:00Z',
              completedAt: '2026-11-01T10:00:01Z',
            },
            {
              status: 'failed',
              error: { code: 'agent.tool_error', message: 'x' },
              startedAt: '2026-11-01T10:00:00Z',
              completedAt: '2026-11-01T10:00:01Z',
            },
          ],
        },
      });
      expect(res.status).toBe(201);
      const { runs } = await res.json();
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'local run delivery');
      const body = JSON.parse(rx.received[0].raw.toString());
      expect(body).toMatchObject({
        type: 'run.failed',
        run: { id: runs[1].id, status: 'failed', error: { code: 'agent.tool_error' } },
      });
    } finally {
      await rx.close();
    }
  });

  it('announces local runs later when Temporal could not take them at once', async () => {
    const rx = await startReceiver();
    const down = await startApi({ ...h.config, temporal: { ...h.config.temporal, address: '127.0.0.1:9' } });
    try {
      await subscribe(rx.url, ['run.succeeded']);
      const res = await down.request('/v1/local-runs', {
        method: 'POST',
        headers: auth,
        json: {
          agentId: echo.id,
          runs: [{ status: 'succeeded', startedAt: '2026-11-01T10:00:00Z', completedAt: '2026-11-01T10:00:01Z' }],
        },
      });
      // the batch is recorded whatever Temporal does
      expect(res.status).toBe(201);
      const { runs } = await res.json();
      expect(rx.received).toHaveLength(0);
      const recovery = { orm: h.orm, temporal: h.temporal, config: h.config };
      expect(await sweepUnannouncedRuns(recovery, 0)).toBeGreaterThanOrEqual(1);
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'the swept announcement');
      expect(JSON.parse(rx.received[0].raw.toString())).toMatchObject({
        type: 'run.succeeded',
        run: { id: runs[0].id },
      });
      // nothing is left to announce: the sweep is the only path that would send it again
      expect(await sweepUnannouncedRuns(recovery, 0)).toBe(0);
      expect(rx.received).toHaveLength(1);
    } finally {
      await down.close();
      await rx.close();
    }
  }, 60_000);

  it('announces run.failed for a run whose workflow could not be started, once Temporal is back', async () => {
    const rx = await startReceiver();
    const down = await startApi({ ...h.config, temporal: { ...h.config.temporal, address: '127.0.0.1:9' } });
    try {
      await subscribe(rx.url, ['run.failed']);
      const res = await down.request('/v1/runs', { method: 'POST', headers: auth, json: { agentId: echo.id } });
      expect(res.status).toBe(503);
      const { runs } = await (await h.request('/v1/runs', { headers: auth })).json();
      expect(runs[0]).toMatchObject({ status: 'failed', error: { code: 'unavailable' } });
      expect(
        await sweepUnannouncedRuns({ orm: h.orm, temporal: h.temporal, config: h.config }, 0),
      ).toBeGreaterThanOrEqual(1);
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'the run.failed delivery');
      expect(JSON.parse(rx.received[0].raw.toString())).toMatchObject({
        type: 'run.failed',
        run: { id: runs[0].id, status: 'failed', output: null, error: { code: 'unavailable' } },
      });
    } finally {
      await down.close();
      await rx.close();
    }
  }, 60_000);
});
