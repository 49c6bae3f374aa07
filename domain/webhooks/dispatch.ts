import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookEventRecord, WebhookSubscription, type WebhookEvent } from '../../db/entities/Webhook';
import type { AnnouncedRun, StatusWriteOptions } from '../../workflows/activityTypes';
import type { RunStatus } from '../../workflows/messages';
import { webhookTaskQueue } from '../../workflows/taskQueues';

/** Statuses whose arrival is announced (docs/api/webhooks.md); queued→running and cancelled never are. */
export const ANNOUNCED: Partial<Record<RunStatus, WebhookEvent>> = {
  succeeded: 'run.succeeded',
  failed: 'run.failed',
  needs_input: 'run.needs_input',
  needs_approval: 'run.needs_approval',
  needs_review: 'run.needs_review',
};

export type { AnnouncedRun };

/** The part of a run a status announcement carries, as it is now (a run row has more). */
export function announcedRun(run: AnnouncedRun): AnnouncedRun {
  return {
    id: run.id,
    workspaceId: run.workspaceId,
    status: run.status,
    output: run.output ?? null,
    error: run.error ?? null,
    pendingAction: run.pendingAction ?? null,
  };
}

export const deliveryWorkflowId = (deliveryId: string, round: number) => `webhook-${deliveryId}-${round}`;

/**
 * Announces a status change from the run's own path at a cost that does not grow with the number
 * of subscribers: one indexed look-up and, only when someone listens, one workflow start. The fan-out
 * workflow then records the deliveries and makes them (deliverAnnouncement). With `announcesInline` it
 * starts nothing and returns the announcement instead, for the run workflow to deliver itself.
 */
export async function announceRun(
  em: EntityManager,
  client: Client,
  taskQueue: string,
  run: AnnouncedRun,
  { announcesInline = false }: StatusWriteOptions = {},
): Promise<AnnouncedRun | null> {
  const type = ANNOUNCED[run.status];
  if (!type) return null;
  const listening = await em.count(WebhookSubscription, {
    workspaceId: run.workspaceId,
    deletedAt: null,
    status: 'active',
    events: { $contains: [type] },
  });
  if (listening === 0) return null;
  const snapshot = announcedRun(run);
  if (announcesInline) return snapshot;
  await client.workflow
    .start('webhookFanoutWorkflow', {
      workflowId: `webhook-fanout-${run.id}-${type}-${run.pendingAction?.id ?? 'final'}`,
      taskQueue,
      args: [{ run: snapshot, deliveryQueue: webhookTaskQueue(taskQueue) }],
    })
    .catch((err) => {
      // A retried announcement after a crash: the fan-out already runs.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    });
  return null;
}

/** A delivery of an event as its first attempt needs it: where, signed with what, and what it sends. */
export interface DeliveryTarget {
  id: string;
  status: string;
  /** Its subscription is neither deleted nor disabled. */
  live: boolean;
  /** How many attempts its log holds. */
  attempts: number;
  url: string;
  secret: string;
  /** The bytes it sends: its event's body, or its own (recorded before events were stored once). */
  body: string;
}

/** The subscriptions listening for `type` in a workspace (its two parameters: workspace id, type). */
const LISTENING = `select id from webhook_subscriptions
  where workspace_id = ? and deleted_at is null and status = 'active' and events @> array[?]::text[]`;

/**
 * Records the event (its body serialised once, `id` the event's) and one delivery per matching live
 * subscription referencing it, and returns the ids of this event's deliveries still pending; runs in the
 * fan-out workflow, off the run's own path (a receiver never delays the run), which then delivers each.
 * Idempotent: the event is unique per (run, type, event key) and the delivery rows per (subscription,
 * event), so a retry after a crash records nothing twice and sends the body recorded the first time.
 */
export async function recordRunDeliveries(em: EntityManager, run: AnnouncedRun): Promise<string[]> {
  return (await recordRunTargets(em, run)).filter((d) => d.status === 'pending').map((d) => d.id);
}

/**
 * recordRunDeliveries, returning every delivery of the event with what its first attempt sends
 * (DeliveryTarget), sorted by id: the fan-out's first attempts need no read of their own. Two statements
 * whatever the subscriber count: the event (only when someone listens), then the deliveries, added by
 * PostgreSQL from the listening subscriptions, together with the event's deliveries recorded before.
 */
export async function recordRunTargets(em: EntityManager, run: AnnouncedRun): Promise<DeliveryTarget[]> {
  const type = ANNOUNCED[run.status];
  if (!type) return [];
  const eventKey = run.pendingAction?.id ?? 'final';
  const conn = em.getConnection();
  const event = new WebhookEventRecord(run.workspaceId, run.id, type, eventKey, '');
  // The body of docs/api/webhooks.md, serialised once so every subscriber and attempt gets identical bytes.
  event.body = JSON.stringify({
    id: event.id,
    type,
    run: { id: run.id, status: run.status, output: run.output ?? null, error: run.error ?? null },
  });
  // The event row, new (only while someone listens) or, a retried fan-out, the one recorded the first time.
  const findEvent = `select id from webhook_events where run_id = ? and type = ? and event_key = ?`;
  let [recorded]: Array<{ id: string }> = await conn.execute(
    `with added as (
       insert into webhook_events (id, created_at, updated_at, workspace_id, run_id, type, event_key, body)
       select ?::uuid, ?::timestamptz, ?::timestamptz, ?::uuid, ?::uuid, ?, ?, ? where exists (${LISTENING})
       on conflict (run_id, type, event_key) do nothing returning id)
     select id from added union all (${findEvent})`,
    [event.id, event.createdAt, event.createdAt, run.workspaceId, run.id, type, eventKey, event.body].concat([
      run.workspaceId,
      type,
      run.id,
      type,
      eventKey,
    ]),
  );
  // Inserted by a concurrent try after this statement began: committed by now. Still none: nobody listens.
  recorded ??= ((await conn.execute(findEvent, [run.id, type, eventKey])) as Array<{ id: string }>)[0];
  if (!recorded) return [];
  // One statement for every subscriber, which also returns every delivery of the event (the ones a
  // retried fan-out recorded the first time too) with what it sends: the first attempts wait for it.
  const createdAt = new Date();
  const findDeliveries = `select id, subscription_id, status, attempts, body, event_id from webhook_deliveries
     where run_id = ? and type = ? and event_key = ?`;
  const deliveries = `with listening as (${LISTENING}),
     added as (
       insert into webhook_deliveries (id, created_at, updated_at, subscription_id, workspace_id, run_id, type, event_key, event_id, status)
       select gen_random_uuid(), ?::timestamptz, ?::timestamptz, l.id, ?::uuid, ?::uuid, ?, ?, ?::uuid, 'pending'
       from listening l
       on conflict (subscription_id, run_id, type, event_key) do nothing
       returning id, subscription_id, status, attempts, body, event_id),
     found as (select * from added union all (${findDeliveries}))
     select f.id, f.status, s.deleted_at is null and s.status = 'active' as live,
       jsonb_array_length(f.attempts) as attempts, s.url, s.secret, coalesce(f.body, e.body) as body,
       exists (select 1 from listening l where not exists
         (select 1 from found g where g.subscription_id = l.id)) as missed
     from found f join webhook_subscriptions s on s.id = f.subscription_id
       left join webhook_events e on e.id = f.event_id`;
  const params = [run.workspaceId, type, createdAt, createdAt, run.workspaceId, run.id, type, eventKey, recorded.id];
  let rows: Array<DeliveryTarget & { missed: boolean }> = await conn.execute(
    deliveries,
    params.concat([run.id, type, eventKey]),
  );
  // A listening subscriber whose row neither part saw was recorded by a concurrent try meanwhile: its
  // row is committed by now, and the statement again adds none and finds them all.
  if (rows.length === 0 || rows[0].missed)
    rows = await conn.execute(deliveries, params.concat([run.id, type, eventKey]));
  return rows
    .map(({ missed: _, ...d }) => ({ ...d, attempts: Number(d.attempts) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
