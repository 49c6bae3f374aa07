import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver, type Received } from '../helpers/receiver';
import { runWorkflowId } from '../../workflows/messages';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

/** A receiver's independent check of the signature over the raw bytes (docs/api/webhooks.md). */
function verify(secret: string, r: Received): boolean {
  const header = String(r.headers['x-svc-signature']);
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]+)/.exec(header)?.[1];
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), r.raw]))
    .digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// A succeeded run's output goes to its agent's connections (docs/api/output-connections.md), real receivers on 127.0.0.1.
describe('saving run outputs', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;
  const secret = 'outsec-0123456789abcdef';

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  }, 120_000);
  afterAll(() => stop?.());

  beforeEach(async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(
      await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:write', 'runner:run']),
    );
  });

  const connect = async (url: string) => {
    const res = await h.request('/v1/output-connections', {
      method: 'POST',
      headers: auth,
      json: { name: 'sink', type: 'http', url, secret },
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string };
  };
  const deliveries = async (id: string) =>
    (await (await h.request(`/v1/output-connections/${id}/deliveries`, { headers: auth })).json()).deliveries;
  /** The connection's latest delivery once its attempts are over: no attempt of it can follow. */
  const settled = async (id: string) =>
    pollUntil(
      10_000,
      async () => (await deliveries(id))[0],
      (d) => Boolean(d) && d.status !== 'pending',
      'the delivery to settle',
    );
  const runClosed = (runId: string) =>
    h.temporal.client.workflow
      .getHandle(runWorkflowId(runId))
      .result()
      .catch(() => undefined);

  it('sends a succeeded run output once, signed over the raw body; nothing for failed runs or other agents', async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 204;
      res.end();
    });
    try {
      const conn = await connect(rx.url);
      const saver = await createAgent(h, auth, { presetId: 'scripted', settings: { saveOutput: [conn.id] } });
      const plain = await createAgent(h, auth, { presetId: 'scripted' });
      const run = await createRun(h, auth, { agentId: saver.id, input: { script: [{ final: { total: 42 } }] } });
      await waitForStatus(h, auth, run.id, 'succeeded');
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'output delivery');
      const failed = await createRun(h, auth, { agentId: saver.id, input: { script: [{ fail: 'no' }] } });
      await waitForStatus(h, auth, failed.id, 'failed');
      const other = await createRun(h, auth, { agentId: plain.id, input: { script: [{ final: 1 }] } });
      await waitForStatus(h, auth, other.id, 'succeeded');
      // a save is recorded by the run's success announcement, made before its workflow closes
      await runClosed(failed.id);
      await runClosed(other.id);
      expect(await deliveries(conn.id)).toHaveLength(1);
      expect(rx.received).toHaveLength(1);

      const [r] = rx.received;
      expect(verify(secret, r)).toBe(true);
      expect(Math.abs(Number(/t=(\d+)/.exec(String(r.headers['x-svc-signature']))![1]) - r.at / 1000)).toBeLessThan(
        300,
      );
      expect(r.headers['content-type']).toBe('application/json');
      const body = JSON.parse(r.raw.toString('utf8'));
      const log = await settled(conn.id);
      expect(body).toEqual({
        id: log.id,
        type: 'output',
        connectionId: conn.id,
        runId: run.id,
        flowRunId: null,
        output: { total: 42 },
      });
      expect(log).toMatchObject({ runId: run.id, flowRunId: null, status: 'succeeded' });
      expect(log.attempts).toEqual([{ at: expect.any(String), statusCode: 204, error: null }]);
      expect(h.logs.join('\n')).not.toContain(secret);
    } finally {
      await rx.close();
    }
  });

  // the attempts' spacing (1 s, then 2 s) is asserted on the workflow clock: test/workflows/outputDelivery.test.ts
  it('retries a receiver answering 500: exactly 3 attempts, same bytes, then failed', async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 500;
      res.end();
    });
    try {
      const conn = await connect(rx.url);
      const saver = await createAgent(h, auth, { presetId: 'general-assistant', settings: { saveOutput: [conn.id] } });
      await createRun(h, auth, { agentId: saver.id, input: { n: 1 } });
      await pollUntil(30_000, () => rx.received.length === 3, Boolean, '3 attempts');
      const log = await settled(conn.id);
      expect(rx.received).toHaveLength(3);
      const [a, b, c] = rx.received;
      expect(b.raw.equals(a.raw) && c.raw.equals(a.raw)).toBe(true);
      expect(rx.received.every((x) => verify(secret, x))).toBe(true);
      expect(log.status).toBe('failed');
      expect(log.attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([500, 500, 500]);
      expect(log.attempts[0].error).toBe('receiver answered 500');
      expect(JSON.parse(a.raw.toString()).output).toEqual({ echo: { n: 1 } });
    } finally {
      await rx.close();
    }
  });

  it('never follows a redirect: a 3xx is a failed attempt, the target is never called', async () => {
    const target = await startReceiver();
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 307;
      res.setHeader('Location', target.url);
      res.end();
    });
    try {
      const conn = await connect(rx.url);
      const saver = await createAgent(h, auth, { presetId: 'general-assistant', settings: { saveOutput: [conn.id] } });
      await createRun(h, auth, { agentId: saver.id, input: {} });
      await pollUntil(30_000, () => rx.received.length === 3, Boolean, '3 attempts');
      const log = await settled(conn.id);
      expect(log.status).toBe('failed');
      expect(log.attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([307, 307, 307]);
      expect(target.received).toHaveLength(0);
    } finally {
      await rx.close();
      await target.close();
    }
  });

  it('local runs that succeed save their output too', async () => {
    const rx = await startReceiver();
    try {
      const conn = await connect(rx.url);
      const saver = await createAgent(h, auth, { presetId: 'general-assistant', settings: { saveOutput: [conn.id] } });
      const at = new Date().toISOString();
      const res = await h.request('/v1/local-runs', {
        method: 'POST',
        headers: auth,
        json: {
          agentId: saver.id,
          runs: [{ input: {}, status: 'succeeded', output: { local: true }, startedAt: at, completedAt: at }],
        },
      });
      expect(res.status).toBe(201);
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'local run output');
      expect(JSON.parse(rx.received[0].raw.toString()).output).toEqual({ local: true });
    } finally {
      await rx.close();
    }
  });
});
