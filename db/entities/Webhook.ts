import { ArrayType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Workspace } from './Workspace';

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
  // Fan-out reads the live subscriptions of a workspace on every announced status change.
  indexes: [
    {
      name: 'webhook_subscriptions_live_index',
      expression:
        'create index "webhook_subscriptions_live_index" on "webhook_subscriptions" ("workspace_id") where "deleted_at" is null',
    },
  ],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'webhook_subscriptions_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    url: { type: 'text' },
    events: { type: ArrayType, columnType: 'text[]' },
    secret: { type: 'text', hidden: true, lazy: false },
    // the class starts every subscription `active`; the column itself has no default
    status: { type: 'string', length: 16, default: null },
    deletedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

export interface DeliveryAttempt {
  at: string;
  statusCode: number | null;
  error: string | null;
}

/**
 * One announced event (a run reaching an announced status, `eventKey` telling its arrivals apart): the
 * delivery body, serialised once for every subscriber. `id` is the body's `id`, so every subscription,
 * attempt and redelivery of the event carries the same one (docs/api/webhooks.md).
 */
export class WebhookEventRecord extends BaseEntity {
  constructor(
    public workspaceId: string,
    public runId: string,
    public type: WebhookEvent,
    public eventKey: string,
    public body: string,
  ) {
    super();
  }
}

export const WebhookEventRecordSchema = new EntitySchema<WebhookEventRecord, BaseEntity>({
  class: WebhookEventRecord,
  extends: 'BaseEntity',
  tableName: 'webhook_events',
  // One body per event: a retried fan-out finds the one it recorded.
  uniques: [{ name: 'webhook_events_event_unique', properties: ['runId', 'type', 'eventKey'] }],
  indexes: [
    // retention walks the table oldest first (docs/operations.md#retention)
    {
      name: 'webhook_events_created_at_id_index',
      expression: 'create index "webhook_events_created_at_id_index" on "webhook_events" ("created_at", "id")',
    },
  ],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'webhook_events_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    runId: { type: 'uuid' },
    type: { type: 'string', length: 32 },
    eventKey: { type: 'string', length: 64 },
    body: { type: 'text' },
  },
});

/**
 * One event for one subscription: the delivery log entry. Its body is the event's (`eventId`); rows
 * recorded before events were stored once keep their own `body` (and its `id`, the delivery id), so
 * they are redelivered byte-identical.
 */
export class WebhookDelivery extends BaseEntity {
  status: 'pending' | 'succeeded' | 'failed' = 'pending';
  attempts: DeliveryAttempt[] = [];
  /** 0 for the first delivery, +1 per redelivery: names the delivery workflow of each round. */
  round = 0;
  /** The body of a delivery recorded before webhook_events; null for every newer one. */
  body: string | null = null;
  /** While set and in the future, the delivery holds one of its workspace's delivery slots (slots.ts). */
  slotUntil: Date | null = null;

  constructor(
    public subscriptionId: string,
    public workspaceId: string,
    public runId: string,
    public type: WebhookEvent,
    /** Which arrival at the status this is (the pending action id, or `final`). */
    public eventKey: string,
    /** The event whose body this delivery sends. */
    public eventId: string | null,
  ) {
    super();
  }
}

export const WebhookDeliverySchema = new EntitySchema<WebhookDelivery, BaseEntity>({
  class: WebhookDelivery,
  extends: 'BaseEntity',
  tableName: 'webhook_deliveries',
  // One delivery per (subscription, event): a retried fan-out never sends an event twice. Led by the event,
  // it is also how a fan-out finds an event's deliveries on every try.
  uniques: [{ name: 'webhook_deliveries_event_unique', properties: ['runId', 'type', 'eventKey', 'subscriptionId'] }],
  indexes: [
    keysetIndex('webhook_deliveries_subscription_created_index', 'webhook_deliveries', 'subscription_id'),
    // retention walks the table oldest first (docs/operations.md#retention)
    {
      name: 'webhook_deliveries_created_at_id_index',
      expression: 'create index "webhook_deliveries_created_at_id_index" on "webhook_deliveries" ("created_at", "id")',
    },
    // Counts a workspace's deliveries in flight on every slot claim.
    {
      name: 'webhook_deliveries_slot_index',
      expression:
        'create index "webhook_deliveries_slot_index" on "webhook_deliveries" ("workspace_id", "slot_until") where "slot_until" is not null',
    },
  ],
  properties: {
    // Not a foreign key (db/migrations/Migration20261127220000.ts): recorded from the listening
    // subscriptions themselves, and a subscription is never deleted, only marked.
    subscriptionId: { type: 'uuid', fieldName: 'subscription_id' },
    workspaceId: { type: 'uuid' },
    runId: { type: 'uuid' },
    type: { type: 'string', length: 32 },
    eventKey: { type: 'string', length: 64 },
    eventId: {
      kind: 'm:1',
      entity: () => WebhookEventRecord,
      mapToPk: true,
      nullable: true,
      fieldName: 'event_id',
      foreignKeyName: 'webhook_deliveries_event_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'no action',
    },
    body: { type: 'text', nullable: true },
    // the class starts every delivery `pending`; the column itself has no default
    status: { type: 'string', length: 16, default: null },
    attempts: { type: 'json', default: [] },
    round: { type: 'integer' },
    slotUntil: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
