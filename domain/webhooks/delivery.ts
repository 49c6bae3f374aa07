import type { EntityManager } from '@mikro-orm/postgresql';
import {
  WebhookDelivery,
  WebhookEventRecord,
  WebhookSubscription,
  type DeliveryAttempt,
} from '../../db/entities/Webhook';
import { NotPublicAddressError, type Resolver } from '../../platform/net/publicAddress';
import { safeRequest } from '../../platform/net/safeHttp';
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { renewDeliverySlot } from './slots';

/** 10 s per attempt; the request gives up a little earlier so the attempt is still recorded. */
export const ATTEMPT_TIMEOUT_MS = 9_000;

export interface DeliveryOptions {
  /** SVC_ALLOW_PRIVATE_WEBHOOKS: skip the public-address check (local development only). */
  allowPrivate: boolean;
  /** SVC_DNS_SERVERS: how the guard looks names up (default the system resolver). */
  resolver?: Resolver;
}

/**
 * What one attempt came to. `subscription_gone`: the subscription was deleted or disabled, so no
 * attempt is made and none should follow; `attempt_failed`: recorded in the log, another may follow.
 */
export type AttemptOutcome =
  { outcome: 'delivered' } | { outcome: 'subscription_gone' } | { outcome: 'attempt_failed'; error: string };

async function recordAttempt(
  em: EntityManager,
  deliveryId: string,
  attempt: DeliveryAttempt,
  status?: WebhookDelivery['status'],
): Promise<void> {
  // A delivery that succeeded gives its workspace slot back (slots.ts).
  await em
    .getConnection()
    .execute(
      `update webhook_deliveries set attempts = attempts || ?::jsonb, updated_at = now() ${status ? ', status = ?, slot_until = null' : ''} where id = ?`,
      status ? [JSON.stringify([attempt]), status, deliveryId] : [JSON.stringify([attempt]), deliveryId],
    );
}

/**
 * The bytes a delivery sends: its event's body, stored once for every subscriber; a delivery recorded
 * before events were stored once has its own.
 */
async function deliveryBody(em: EntityManager, delivery: WebhookDelivery): Promise<string> {
  if (delivery.body !== null) return delivery.body;
  return (await em.findOneOrFail(WebhookEventRecord, delivery.eventId!)).body;
}

/**
 * Makes attempt number `attempt` (1-based) of a delivery and records it in the delivery log; a 2xx
 * marks the delivery `succeeded`. Any other status, any 3xx (redirects are never followed), a timeout
 * or a connection error is `attempt_failed`. The URL is resolved and checked again before every
 * attempt and the connection goes to the checked address, so DNS cannot swap in a private one.
 * Signed over the stored body bytes, identical on every attempt and for every subscriber
 * (docs/api/webhooks.md). Renews the delivery's workspace slot, if it holds one, for this attempt.
 * @throws only when the database fails (the attempt is then not recorded)
 */
export async function attemptDelivery(
  em: EntityManager,
  deliveryId: string,
  attempt: number,
  opts: DeliveryOptions,
): Promise<AttemptOutcome> {
  const delivery = await em.findOneOrFail(WebhookDelivery, deliveryId);
  const sub = await em.findOne(WebhookSubscription, delivery.subscriptionId);
  // A subscription deleted or disabled mid-retry stops receiving at once.
  if (!sub || sub.deletedAt || sub.status !== 'active') return { outcome: 'subscription_gone' };
  const body = await deliveryBody(em, delivery);
  await renewDeliverySlot(em, deliveryId);
  const at = new Date();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await safeRequest(sub.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'svc-webhooks/1',
        [SIGNATURE_HEADER]: signatureHeader(sub.secret, body, Math.floor(at.getTime() / 1000)),
        'X-SVC-Delivery': delivery.id,
        'X-SVC-Attempt': String(attempt),
      },
      body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      allowPrivate: opts.allowPrivate,
      resolver: opts.resolver,
      maxResponseBytes: 4096,
    });
    statusCode = res.status;
    if (res.status < 200 || res.status >= 300) error = `receiver answered ${res.status}`;
  } catch (err) {
    error = err instanceof NotPublicAddressError ? `url not public: ${err.reason}` : (err as Error).message;
  }
  await recordAttempt(em, deliveryId, { at: at.toISOString(), statusCode, error }, error ? undefined : 'succeeded');
  return error ? { outcome: 'attempt_failed', error } : { outcome: 'delivered' };
}

/**
 * Marks a delivery whose attempts are used up (or whose subscription is gone) as failed, a no-op for one
 * no longer pending; either way it gives its workspace slot back.
 */
export async function failDelivery(em: EntityManager, deliveryId: string): Promise<void> {
  await em.getConnection().execute(
    `update webhook_deliveries set status = case when status = 'pending' then 'failed' else status end,
         slot_until = null, updated_at = now() where id = ?`,
    [deliveryId],
  );
}
