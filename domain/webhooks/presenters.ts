import type { DeliveryAttempt, WebhookDelivery, WebhookEvent, WebhookSubscription } from '../../db/entities/Webhook';

/** A subscription as callers see it: exactly these keys, never the secret (docs/api/webhooks.md). */
export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEvent[];
  status: 'active' | 'disabled';
  createdAt: string;
  updatedAt: string;
}

/** One entry of a subscription's delivery log, with every attempt made so far. */
export interface DeliveryView {
  id: string;
  type: WebhookEvent;
  runId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
  createdAt: string;
}

export function serializeWebhook(sub: WebhookSubscription): WebhookView {
  return {
    id: sub.id,
    url: sub.url,
    events: sub.events,
    status: sub.status,
    createdAt: sub.createdAt.toISOString(),
    updatedAt: sub.updatedAt.toISOString(),
  };
}

export function serializeDelivery(d: WebhookDelivery): DeliveryView {
  return {
    id: d.id,
    type: d.type,
    runId: d.runId,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.createdAt.toISOString(),
  };
}
