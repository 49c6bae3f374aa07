import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createWebhookActivities, WebhookFailure } from '../../activities/webhooks';
import { recordRunDeliveries } from '../../domain/webhooks/dispatch';
import { createSecretBox } from '../../platform/secrets';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';

// The delivery activity alone, in Temporal's MockActivityEnvironment (no worker, no server): what one attempt
// does with Temporal's attempt number, and which failures Temporal may retry. The schedule of the attempts is
// test/workflows/webhookDelivery.test.ts; the whole path with a worker is delivery.test.ts.
describe('the deliverWebhook activity', () => {
  let h: Harness;
  let auth: Record<string, string>;
  let workspaceId: string;
  const secret = 'whsec-0123456789abcdef';

  beforeAll(async () => {
    h = await startApi({ allowPrivateWebhooks: true });
  }, 120_000);
  afterAll(() => h?.close());

  beforeEach(async () => {
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['webhooks:manage', 'runs:read']));
  });

  const activities = () =>
    createWebhookActivities({
      orm: h.orm,
      allowPrivate: true,
      box: createSecretBox(h.config.secretKeys),
      workspaceSlots: 25,
      concurrency: 10,
      inlineFanOuts: 1,
    });
  /** A subscription to `url` and the delivery of one hand-announced run to it. */
  const delivery = async (url: string) => {
    const res = await h.request('/v1/webhooks', {
      method: 'POST',
      headers: auth,
      json: { url, events: ['run.succeeded'], secret },
    });
    expect(res.status).toBe(201);
    const sub = (await res.json()) as { id: string };
    const run = {
      id: randomUUID(),
      workspaceId,
      status: 'succeeded' as const,
      output: null,
      error: null,
      pendingAction: null,
    };
    const [id] = await recordRunDeliveries(h.orm.em.fork(), run);
    return { subId: sub.id, deliveryId: id };
  };
  const failureOf = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e as ApplicationFailure,
    );

  it("numbers its attempt after Temporal's, and a receiver's 500 is a failure Temporal retries", async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 500;
      res.end();
    });
    try {
      const { subId, deliveryId } = await delivery(rx.url);
      // attempt 2 of the activity after 1 prior attempt (the fan-out's): the receiver sees attempt 3
      const env = new MockActivityEnvironment({ attempt: 2 });
      const err = await failureOf(env.run(activities().deliverWebhook, deliveryId, 1));
      expect(err).toBeInstanceOf(ApplicationFailure);
      expect(err).toMatchObject({
        type: WebhookFailure.attemptFailed,
        nonRetryable: false,
        message: 'receiver answered 500',
      });
      expect(rx.received.map((r) => r.headers['x-svc-attempt'])).toEqual(['3']);
      const log = (await (await h.request(`/v1/webhooks/${subId}/deliveries`, { headers: auth })).json()).deliveries;
      expect(log[0].attempts).toEqual([{ at: expect.any(String), statusCode: 500, error: 'receiver answered 500' }]);
    } finally {
      await rx.close();
    }
  });

  it('succeeds on a 2xx, and refuses to go on (not retryable) once the subscription is deleted', async () => {
    const rx = await startReceiver();
    try {
      const { subId, deliveryId } = await delivery(rx.url);
      await new MockActivityEnvironment().run(activities().deliverWebhook, deliveryId);
      expect(rx.received).toHaveLength(1);
      expect((await h.request(`/v1/webhooks/${subId}`, { method: 'DELETE', headers: auth })).status).toBe(204);
      const err = await failureOf(
        new MockActivityEnvironment({ attempt: 2 }).run(activities().deliverWebhook, deliveryId),
      );
      expect(err).toMatchObject({ type: WebhookFailure.subscriptionGone, nonRetryable: true });
      expect(rx.received).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });
});
