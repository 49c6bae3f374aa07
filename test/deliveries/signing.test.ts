import { createHmac } from 'node:crypto';
import { verifyWebhookSignature } from '../../client/src/index.js';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { pollUntil } from '../helpers/poll';
import { startReceiver, type Received } from '../helpers/receiver';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

/** The reference algorithm of docs/api/webhooks.md: hex HMAC-SHA256 of `<t>.<raw body>`, `t` as sent. */
function referenceSignature(secret: string, header: string, raw: Buffer): string {
  const t = header.split(',')[0].slice('t='.length);
  const v1 = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), raw]))
    .digest('hex');
  return `t=${t},v1=${v1}`;
}

/** What a receiver sees of a delivery's signing, apart from the body's own content. */
function signing(secret: string, r: Received) {
  const header = String(r.headers['x-svc-signature']);
  return {
    verifiedByClient: verifyWebhookSignature(secret, header, r.raw),
    // the header is exactly the reference's, nothing more, nothing less
    matchesReference: header === referenceSignature(secret, header, r.raw),
    headerShape: /^t=\d+,v1=[0-9a-f]{64}$/.test(header),
    // a wrong secret never verifies
    otherSecretRefused: !verifyWebhookSignature(`${secret}-other`, header, r.raw),
    deliveryHeader: typeof r.headers['x-svc-delivery'] === 'string',
    attempt: r.headers['x-svc-attempt'],
    contentType: r.headers['content-type'],
  };
}

// Webhook deliveries and save-output deliveries go through one signed-delivery engine (domain/deliveries/):
// a receiver checks both the same way, with the client package or the reference algorithm.
describe('one signed-delivery engine for webhooks and output connections', () => {
  let h: Harness;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  }, 120_000);
  afterAll(() => stop?.());

  it("signs a run's webhook event and its saved output alike, each verifiable over its raw bytes", async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(
      await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:write', 'agents:read']),
    );
    // One secret for both, so any difference in signing would show as a difference in what verifies.
    const secret = 'shared-secret-0123456789';
    const hooks = await startReceiver((_n, _req, res) => res.end('ok'));
    const outputs = await startReceiver((_n, _req, res) => res.end('ok'));
    try {
      const hook = await h.request('/v1/webhooks', {
        method: 'POST',
        headers: auth,
        json: { url: hooks.url, events: ['run.succeeded'], secret },
      });
      expect(hook.status).toBe(201);
      const conn = await h.request('/v1/output-connections', {
        method: 'POST',
        headers: auth,
        json: { name: 'sink', type: 'http', url: outputs.url, secret },
      });
      expect(conn.status).toBe(201);
      const { id: connectionId } = (await conn.json()) as { id: string };
      const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { saveOutput: [connectionId] } });
      const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { total: 42 } }] } });
      await waitForStatus(h, auth, run.id, 'succeeded');
      await pollUntil(
        20_000,
        () => hooks.received.length === 1 && outputs.received.length === 1,
        Boolean,
        'both deliveries',
      );

      const [event] = hooks.received;
      const [output] = outputs.received;
      expect(JSON.parse(event.raw.toString())).toMatchObject({ type: 'run.succeeded', run: { id: run.id } });
      expect(JSON.parse(output.raw.toString())).toMatchObject({ type: 'output', runId: run.id, output: { total: 42 } });
      const expected = {
        verifiedByClient: true,
        matchesReference: true,
        headerShape: true,
        otherSecretRefused: true,
        deliveryHeader: true,
        attempt: '1',
        contentType: 'application/json',
      };
      expect(signing(secret, event)).toEqual(expected);
      expect(signing(secret, output)).toEqual(expected);
      // Same headers of the signing scheme on both; only the User-Agent names the kind.
      const schemeHeaders = (r: Received) =>
        Object.keys(r.headers)
          .filter((k) => k.startsWith('x-svc-'))
          .sort();
      expect(schemeHeaders(output)).toEqual(schemeHeaders(event));
      expect(schemeHeaders(event)).toEqual(['x-svc-attempt', 'x-svc-delivery', 'x-svc-signature']);
      // The delivery header names each delivery in its log.
      const outputLog = (
        await (await h.request(`/v1/output-connections/${connectionId}/deliveries`, { headers: auth })).json()
      ).deliveries;
      expect(outputLog.map((d: { id: string }) => d.id)).toEqual([output.headers['x-svc-delivery']]);
      const { id: hookId } = (await hook.json()) as { id: string };
      const hookLog = (await (await h.request(`/v1/webhooks/${hookId}/deliveries`, { headers: auth })).json())
        .deliveries;
      expect(hookLog.map((d: { id: string }) => d.id)).toEqual([event.headers['x-svc-delivery']]);
    } finally {
      await hooks.close();
      await outputs.close();
    }
  });
});
