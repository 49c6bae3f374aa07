/**
 * `@svc/client` against the REAL webhook delivery path: a subscription made with `webhooks.create`,
 * a run on the real worker, the delivery POSTed by the real delivery workflow to a receiver on
 * 127.0.0.1, and `verifyWebhookSignature` over the bytes as received.
 */
import {
  NotFoundError,
  ValidationError,
  verifyWebhookSignature,
  type Svc,
  type WebhookDeliveryBody,
} from '../../client/src/index.js';
import {
  WEBHOOK_BODY_FIELDS,
  WEBHOOK_BODY_RUN_FIELDS,
  WEBHOOK_DELIVERY_FIELDS,
  WEBHOOK_FIELDS,
} from '../../client/src/schema.js';
import type { Harness } from '../helpers/harness';
import { startReceiver } from '../helpers/receiver';
import { startRunStack } from '../helpers/worker';
import { clientWorkspace, rejectionOf } from './e2e-helpers';
import { pollUntil } from '../helpers/poll';

let h: Harness;
let stop: () => Promise<void>;
let svc: Svc;
const secret = 'whsec-client-e2e-0123456789';

beforeAll(async () => {
  // receivers live on 127.0.0.1, which the public-address guard refuses unless private targets are allowed
  ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  ({ svc } = await clientWorkspace(h));
}, 120_000);
afterAll(() => stop?.());

describe('client e2e: webhooks', () => {
  it('verifies the signature of a real delivery over the raw body, and rejects a tampered one', async () => {
    const rx = await startReceiver((_n, _req, res) => void res.writeHead(204).end());
    try {
      const sub = await svc.webhooks.create({ url: rx.url, events: ['run.succeeded'], secret });
      expect(Object.keys(sub).sort()).toEqual(Object.keys(WEBHOOK_FIELDS).sort()); // never the secret
      expect(sub).toMatchObject({ url: rx.url, events: ['run.succeeded'], status: 'active' });
      expect((await svc.webhooks.list()).map((w) => w.id)).toContain(sub.id);

      const echo = await svc.agents.create({ name: 'Echo', presetId: 'general-assistant' });
      const run = await svc.runs.create({ agentId: echo.id, input: { ping: 'pong' } });
      expect((await svc.runs.wait(run.id, { pollMs: 100, timeoutMs: 30_000 })).status).toBe('succeeded');
      await pollUntil(20_000, () => rx.received.length === 1, Boolean, 'the run.succeeded delivery');

      const { headers, raw } = rx.received[0]!;
      const header = headers['x-svc-signature'] as string | undefined;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(secret, header, raw)).toBe(true);
      expect(verifyWebhookSignature(secret, header, raw.toString('utf8'))).toBe(true);
      expect(verifyWebhookSignature(secret, header, new Uint8Array(raw).buffer)).toBe(true);

      // one changed byte, the re-serialised JSON, another secret, a stale timestamp: all false
      const tampered = Buffer.from(raw);
      tampered[tampered.length - 2] ^= 1;
      expect(verifyWebhookSignature(secret, header, tampered)).toBe(false);
      const reserialised = JSON.stringify(JSON.parse(raw.toString('utf8')), null, 1);
      expect(verifyWebhookSignature(secret, header, reserialised)).toBe(false);
      expect(verifyWebhookSignature(`${secret}-other`, header, raw)).toBe(false);
      const t = Number(/t=(\d+)/.exec(header!)![1]);
      expect(verifyWebhookSignature(secret, header, raw, { now: t + 301 })).toBe(false);

      const body = JSON.parse(raw.toString('utf8')) as WebhookDeliveryBody;
      expect(Object.keys(body).sort()).toEqual(Object.keys(WEBHOOK_BODY_FIELDS).sort());
      expect(Object.keys(body.run).sort()).toEqual(Object.keys(WEBHOOK_BODY_RUN_FIELDS).sort());
      expect(body).toEqual({
        id: expect.any(String),
        type: 'run.succeeded',
        run: { id: run.id, status: 'succeeded', output: { echo: { ping: 'pong' } }, error: null },
      });

      // the delivery log, read through the client, shows this delivery and its successful attempt
      const logged = await pollUntil(
        10_000,
        () => svc.webhooks.deliveries(sub.id).toArray(),
        (l) => l[0]?.status === 'succeeded',
        'the delivery log',
      );
      expect(logged).toHaveLength(1);
      expect(Object.keys(logged[0]!).sort()).toEqual(Object.keys(WEBHOOK_DELIVERY_FIELDS).sort());
      // the log entry is the delivery (X-SVC-Delivery); the body id names the event
      expect(logged[0]).toMatchObject({ id: headers['x-svc-delivery'], type: 'run.succeeded', runId: run.id });
      expect(logged[0]!.status).toBe('succeeded');
      expect(logged[0]!.attempts).toEqual([{ at: expect.any(String), statusCode: 204, error: null }]);

      await svc.webhooks.delete(sub.id);
      expect((await svc.webhooks.list()).map((w) => w.id)).not.toContain(sub.id);
      expect(await rejectionOf(svc.webhooks.delete(sub.id))).toBeInstanceOf(NotFoundError);
      expect(await rejectionOf(svc.webhooks.deliveries(sub.id).toArray())).toBeInstanceOf(NotFoundError);
    } finally {
      await rx.close();
    }
  });

  it('maps a refused webhook URL and a short secret to ValidationError', async () => {
    const notHttp = await rejectionOf(
      svc.webhooks.create({ url: 'ftp://127.0.0.1/x', events: ['run.failed'], secret }),
    );
    expect(notHttp).toBeInstanceOf(ValidationError);
    expect(notHttp).toMatchObject({ status: 400, code: 'webhook.url_not_public' });
    const short = await rejectionOf(
      svc.webhooks.create({ url: 'http://127.0.0.1:9/x', events: ['run.failed'], secret: 'short' }),
    );
    expect(short).toBeInstanceOf(ValidationError);
    expect(short).toMatchObject({ status: 400, code: 'validation_error' });
  });
});
