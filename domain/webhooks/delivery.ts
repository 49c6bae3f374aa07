import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Orm } from '../../db/orm';
import { WebhookDelivery, WebhookSubscription, type DeliveryAttempt } from '../../db/entities/Webhook';
import { NotPublicAddressError, type Resolver } from '../../platform/net/publicAddress';
import { safeRequest } from '../../platform/net/safeHttp';
import { SIGNATURE_HEADER, signatureHeader } from './signature';

/** CONTRACT §6: 10 s per attempt; the request gives up a little earlier so the attempt is still recorded. */
export const ATTEMPT_TIMEOUT_MS = 9_000;
export const DELIVERY_GONE = 'webhook.subscription_gone';

export interface WebhookActivityDeps {
  orm: Orm;
  allowPrivate: boolean;
  resolver?: Resolver;
}

/** The delivery side of webhooks (STYLE: activities from a factory that receives their dependencies). */
export function createWebhookActivities(deps: WebhookActivityDeps) {
  const { orm } = deps;

  async function record(
    deliveryId: string,
    attempt: DeliveryAttempt,
    status?: WebhookDelivery['status'],
  ): Promise<void> {
    await orm.em
      .fork()
      .getConnection()
      .execute(
        `update webhook_deliveries set attempts = attempts || ?::jsonb, updated_at = now() ${status ? ', status = ?' : ''} where id = ?`,
        status ? [JSON.stringify([attempt]), status, deliveryId] : [JSON.stringify([attempt]), deliveryId],
      );
  }

  return {
    /**
     * One attempt (spec §6 delivery rules). Throws on any non-2xx, any 3xx (never followed), timeout or
     * connection error so Temporal's retry policy makes the next attempt; the URL is resolved and checked
     * again first (rule 6), and the connection goes to the checked address.
     */
    async deliverWebhook(deliveryId: string): Promise<void> {
      const em = orm.em.fork();
      const delivery = await em.findOneOrFail(WebhookDelivery, deliveryId);
      const sub = await em.findOne(WebhookSubscription, delivery.subscriptionId);
      // A subscription deleted or disabled mid-retry stops receiving at once.
      if (!sub || sub.deletedAt || sub.status !== 'active') {
        throw ApplicationFailure.create({
          type: DELIVERY_GONE,
          message: 'subscription deleted or disabled',
          nonRetryable: true,
        });
      }
      const at = new Date();
      let statusCode: number | null = null;
      let error: string | null = null;
      try {
        const res = await safeRequest(sub.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'svc-webhooks/1',
            [SIGNATURE_HEADER]: signatureHeader(sub.secret, delivery.body, Math.floor(at.getTime() / 1000)),
            'X-SVC-Delivery': delivery.id,
            'X-SVC-Attempt': String(Context.current().info.attempt),
          },
          body: delivery.body,
          timeoutMs: ATTEMPT_TIMEOUT_MS,
          allowPrivate: deps.allowPrivate,
          resolver: deps.resolver,
          maxResponseBytes: 4096,
        });
        statusCode = res.status;
        if (res.status < 200 || res.status >= 300) error = `receiver answered ${res.status}`;
      } catch (err) {
        error = err instanceof NotPublicAddressError ? `url not public: ${err.reason}` : (err as Error).message;
      }
      await record(deliveryId, { at: at.toISOString(), statusCode, error }, error ? undefined : 'succeeded');
      if (error) throw ApplicationFailure.create({ type: 'webhook.attempt_failed', message: error });
    },

    /** Marks a delivery whose attempts are used up (or whose subscription is gone) as failed. */
    async failDelivery(deliveryId: string): Promise<void> {
      await orm.em.fork().nativeUpdate(WebhookDelivery, { id: deliveryId, status: 'pending' }, { status: 'failed' });
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
