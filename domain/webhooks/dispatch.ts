import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookEventRecord, WebhookSubscription, type WebhookEvent } from '../../db/entities/Webhook';
import type { AnnouncedRun, StatusWriteOptions } from '../../workflows/activityTypes';
import type { RunStatus } from '../../workflows/messages';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { webhookTaskQueue } from '../../workflows/taskQueues';
import { webhookFanoutWorkflow } from '../../workflows/webhookDelivery';
import { lockDeliverySlots, SLOT_HOLD_SECONDS } from './slots';

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
    .start(webhookFanoutWorkflow, {
      workflowId: `webhook-fanout-${run.id}-${type}-${run.pendingAction?.id ?? 'final'}`,
      taskQueue,
      args: [{ run: snapshot, deliveryQueue: webhookTaskQueue(taskQueue) }],
      typedSearchAttributes: [{ key: SvcWorkspaceId, value: run.workspaceId }],
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
  subscriptionId: string;
  url: string;
  /** The subscription's secret as stored (sealed); opened only to sign an attempt. */
  secret: string;
  /** The bytes it sends: its event's body, or its own (recorded before events were stored once). */
  body: string;
  /**
   * Recorded now holding one of its workspace's delivery slots (recordRunTargets' `claimSlots`): its first
   * attempt goes without a claim of its own. False for a delivery recorded earlier, held or not.
   */
  claimed: boolean;
}

/**
 * Whether a delivery's subscription (`s`, left-joined) still receives: neither deleted nor disabled. A
 * subscription row that is not there at all counts as deleted: a delivery does not hold its subscription
 * by a foreign key (db/migrations/Migration20261127220000.ts).
 */
export const LIVE = `coalesce(s.deleted_at is null and s.status = 'active', false)`;

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
 *
 * `claimSlots` (the fan-out, which attempts them at once): when every listening subscriber fits in the
 * workspace's free delivery slots (at most that many held in all, slots.ts), the new deliveries are
 * added holding one each, in the statement that adds them; when not, none is (the fan-out then claims
 * in waves, and one that hands its deliveries over leaves no slot behind). The statements then run in
 * one transaction after the workspace's slot lock, as claimDeliverySlots does: one commit for the
 * recording and the claim, and no second write of the rows just added, which for a hundred subscribers
 * took longer than the recording itself.
 */
export async function recordRunTargets(
  em: EntityManager,
  run: AnnouncedRun,
  { claimSlots = 0 }: { claimSlots?: number } = {},
): Promise<DeliveryTarget[]> {
  if (!ANNOUNCED[run.status]) return [];
  if (claimSlots <= 0) return recordTargets(em, run, 0);
  return em.transactional(async (tx) => {
    await lockDeliverySlots(tx, run.workspaceId);
    return recordTargets(tx, run, claimSlots);
  });
}

async function recordTargets(em: EntityManager, run: AnnouncedRun, claimSlots: number): Promise<DeliveryTarget[]> {
  const type = ANNOUNCED[run.status]!;
  const eventKey = run.pendingAction?.id ?? 'final';
  const event = new WebhookEventRecord(run.workspaceId, run.id, type, eventKey, '');
  // The body of docs/api/webhooks.md, serialised once so every subscriber and attempt gets identical bytes.
  event.body = JSON.stringify({
    id: event.id,
    type,
    run: { id: run.id, status: run.status, output: run.output ?? null, error: run.error ?? null },
  });
  // The event row, new (only while someone listens) or, a retried fan-out, the one recorded the first time.
  const findEvent = `select id from webhook_events where run_id = ? and type = ? and event_key = ?`;
  let [recorded]: Array<{ id: string }> = await em.execute(
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
  recorded ??= ((await em.execute(findEvent, [run.id, type, eventKey])) as Array<{ id: string }>)[0];
  if (!recorded) return [];
  // One statement for every subscriber, which also returns every delivery of the event (the ones a
  // retried fan-out recorded the first time too) with what it sends: the first attempts wait for it.
  const createdAt = new Date();
  const findDeliveries = `select id, subscription_id, status, attempts, body, event_id, false from webhook_deliveries
     where run_id = ? and type = ? and event_key = ?`;
  // Slots are claimed only with claimSlots > 0, under the lock recordRunTargets took: the count of held
  // slots (an index of held ones only) is then what the claims before this one committed.
  const deliveries = `with listening as (${LISTENING}),
     free as (
       select (select count(*) from listening) <= ?::int - (select count(*) from webhook_deliveries
                                     where ?::int > 0 and workspace_id = ? and slot_until > now()) as fits),
     added as (
       insert into webhook_deliveries (id, created_at, updated_at, subscription_id, workspace_id, run_id, type, event_key, event_id, status, slot_until)
       select gen_random_uuid(), ?::timestamptz, ?::timestamptz, l.id, ?::uuid, ?::uuid, ?, ?, ?::uuid, 'pending',
         case when (select fits from free) then now() + make_interval(secs => ?) end
       from listening l
       on conflict (subscription_id, run_id, type, event_key) do nothing
       returning id, subscription_id, status, attempts, body, event_id, slot_until is not null as claimed),
     found as (select * from added union all (${findDeliveries}))
     select f.id, f.status, ${LIVE} as live,
       jsonb_array_length(f.attempts) as attempts, s.id as "subscriptionId", s.url, s.secret, coalesce(f.body, e.body) as body, f.claimed,
       exists (select 1 from listening l where not exists
         (select 1 from found g where g.subscription_id = l.id)) as missed
     from found f left join webhook_subscriptions s on s.id = f.subscription_id
       left join webhook_events e on e.id = f.event_id`;
  const params = [
    run.workspaceId,
    type,
    claimSlots,
    claimSlots,
    run.workspaceId,
    createdAt,
    createdAt,
    run.workspaceId,
    run.id,
    type,
    eventKey,
    recorded.id,
    SLOT_HOLD_SECONDS,
  ];
  let rows: Array<DeliveryTarget & { missed: boolean }> = await em.execute(
    deliveries,
    params.concat([run.id, type, eventKey]),
  );
  // A listening subscriber whose row neither part saw was recorded by a concurrent try meanwhile: its
  // row is committed by now, and the statement again adds none and finds them all.
  if (rows.length === 0 || rows[0].missed) rows = await em.execute(deliveries, params.concat([run.id, type, eventKey]));
  return rows
    .map(({ missed: _, ...d }) => ({ ...d, attempts: Number(d.attempts) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
