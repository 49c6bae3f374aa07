import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookDelivery, WebhookEventRecord, WebhookSubscription } from '../../db/entities/Webhook';
import { secretSlot } from '../../db/secretColumns';
import { failDelivery as failLogged, type DeliveryLog } from '../deliveries/deliveryLog';
import { postSignedAttempt, sendSignedAttempt, type SignedOutcome } from '../deliveries/signedAttempt';
import type { DeliveryOptions, SignedPostResult } from '../deliveries/signedPost';
import { renewDeliverySlot } from './slots';

export { ATTEMPT_TIMEOUT_MS, type DeliveryOptions } from '../deliveries/signedPost';

/**
 * Webhook deliveries as the signed-delivery engine (domain/deliveries/) keeps them: a delivery that finishes
 * gives its workspace slot back (slots.ts); each redelivery is a new round, naming its workflow.
 */
export const WEBHOOK_DELIVERIES: DeliveryLog = {
  table: 'webhook_deliveries',
  ownerColumn: 'subscription_id',
  onFinish: 'slot_until = null',
  countsRounds: true,
  userAgent: 'svc-webhooks/1',
};

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
export type AttemptOutcome = SignedOutcome | { outcome: 'subscription_gone' };

/**
 * The bytes a delivery sends: its event's body, stored once for every subscriber; a delivery recorded
 * before events were stored once has its own.
 */
async function deliveryBody(em: EntityManager, delivery: WebhookDelivery): Promise<string> {
  if (delivery.body !== null) return delivery.body;
  return (await em.findOneOrFail(WebhookEventRecord, delivery.eventId!)).body;
}

const signedTarget = ({ subscriptionId, ...target }: WebhookTarget) => ({
  ...target,
  secretSlot: webhookSecretSlot(subscriptionId),
});

/**
 * Makes attempt number `attempt` (1-based) of a delivery through the signed-delivery engine
 * (domain/deliveries/signedAttempt.ts) and records it in the delivery log; a 2xx marks the delivery
 * `succeeded`. Signed over the stored body bytes, identical on every attempt and for every subscriber
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
  return sendSignedAttempt(em, WEBHOOK_DELIVERIES, signedTarget(target), attempt, opts);
}

/**
 * The signed POST of one attempt, not yet in the log: the fan-out's first attempts log theirs in batches
 * (attemptLog.ts). Never throws: a failure is in `error`.
 */
export function postAttempt(target: WebhookTarget, attempt: number, opts: DeliveryOptions): Promise<SignedPostResult> {
  return postSignedAttempt(WEBHOOK_DELIVERIES, signedTarget(target), attempt, opts);
}

/**
 * Marks a delivery whose attempts are used up (or whose subscription is gone) as failed, a no-op for one
 * no longer pending; either way it gives its workspace slot back.
 */
export function failDelivery(em: EntityManager, deliveryId: string): Promise<void> {
  return failLogged(em, WEBHOOK_DELIVERIES, deliveryId);
}
