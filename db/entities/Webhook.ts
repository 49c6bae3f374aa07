import { ArrayType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';

/** Webhook event kinds: the five run statuses that are announced. */
export const WEBHOOK_EVENTS = [
  'run.succeeded',
  'run.failed',
  'run.needs_input',
  'run.needs_approval',
  'run.needs_review',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * A webhook subscription (docs/api/webhooks.md). The secret signs deliveries, so it is kept
 * (never hashed), marked hidden and never serialised, returned or logged.
 */
export class WebhookSubscription extends BaseEntity {
  status: 'active' | 'disabled' = 'active';
  deletedAt: Date | null = null;

  constructor(
    public workspaceId: string,
    public url: string,
    public events: WebhookEvent[],
    public secret: string,
  ) {
    super();
  }
}

export const WebhookSubscriptionSchema = new EntitySchema<WebhookSubscription, BaseEntity>({
  class: WebhookSubscription,
  extends: 'BaseEntity',
  tableName: 'webhook_subscriptions',
  properties: {
    workspaceId: { type: 'uuid' },
    url: { type: 'text' },
    events: { type: ArrayType, columnType: 'text[]' },
    secret: { type: 'text', hidden: true, lazy: false },
    status: { type: 'string' },
    deletedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

export interface DeliveryAttempt {
  at: string;
  statusCode: number | null;
  error: string | null;
}

/**
 * One event for one subscription. `id` is the delivery id of the body, stable across
 * attempts and redeliveries; `body` holds the exact bytes every attempt sends.
 */
export class WebhookDelivery extends BaseEntity {
  status: 'pending' | 'succeeded' | 'failed' = 'pending';
  attempts: DeliveryAttempt[] = [];
  /** 0 for the first delivery, +1 per redelivery: names the delivery workflow of each round. */
  round = 0;

  constructor(
    public subscriptionId: string,
    public workspaceId: string,
    public runId: string,
    public type: WebhookEvent,
    /** Which arrival at the status this is (the pending action id, or `final`). */
    public eventKey: string,
    public body: string,
  ) {
    super();
  }
}

export const WebhookDeliverySchema = new EntitySchema<WebhookDelivery, BaseEntity>({
  class: WebhookDelivery,
  extends: 'BaseEntity',
  tableName: 'webhook_deliveries',
  properties: {
    subscriptionId: { type: 'uuid' },
    workspaceId: { type: 'uuid' },
    runId: { type: 'uuid' },
    type: { type: 'string' },
    eventKey: { type: 'string' },
    body: { type: 'text' },
    status: { type: 'string' },
    attempts: { type: 'json' },
    round: { type: 'integer' },
  },
});
