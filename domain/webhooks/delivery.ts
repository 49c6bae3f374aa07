import type { EntityManager } from '@mikro-orm/postgresql';
import {
  WebhookDelivery,
  WebhookEventRecord,
  WebhookSubscription,
  type DeliveryAttempt,
} from '../../db/entities/Webhook';
import { secretSlot } from '../../db/secretColumns';
import { signedPost, type DeliveryOptions, type SignedPostResult } from './signedPost';
import { renewDeliverySlot } from './slots';

export { ATTEMPT_TIMEOUT_MS, type DeliveryOptions } from './signedPost';

/** What one attempt sends: `secret` is the subscription's as stored (sealed), opened only to sign. */
export interface WebhookTarget {
  deliveryId: string;
  subscriptionId: string;
  url: string;
  secret: string;
  body: string;
}

/** Where a subscription's secret lives: its ciphertext is bound to the row. */
export const webhookSecretSlot = (subscriptionId: string) =>
  secretSlot('webhook_subscriptions', subscriptionId, 'secret');

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
  const target = { deliveryId: delivery.id, subscriptionId: sub.id, url: sub.url, secret: sub.secret, body };
  return sendAttempt(em, target, attempt, opts);
}

/**
 * The signed POST of one attempt, not yet in the log: what sendAttempt sends, and the fan-out's first
 * attempts, which log theirs in batches (attemptLog.ts). Never throws: a failure is in `error`.
 */
export function postAttempt(target: WebhookTarget, attempt: number, opts: DeliveryOptions): Promise<SignedPostResult> {
  const secretSlot = webhookSecretSlot(target.subscriptionId);
  return signedPost({ ...target, secretSlot, attempt, userAgent: 'svc-webhooks/1' }, opts);
}

/**
 * The attempt itself, for a delivery already loaded (and its slot held): the signed POST (the URL
 * checked again, no redirect, 10 s) and its entry in the delivery log; a 2xx marks it `succeeded`.
 * attemptDelivery sends this way; the fan-out's first attempts (firstAttempts.ts) post the same way.
 * @throws only when the database fails
 */
export async function sendAttempt(
  em: EntityManager,
  target: WebhookTarget,
  attempt: number,
  opts: DeliveryOptions,
): Promise<{ outcome: 'delivered' } | { outcome: 'attempt_failed'; error: string }> {
  const result = await postAttempt(target, attempt, opts);
  await recordAttempt(em, target.deliveryId, result, result.error ? undefined : 'succeeded');
  return result.error ? { outcome: 'attempt_failed', error: result.error } : { outcome: 'delivered' };
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
