import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookDelivery, WebhookEventRecord, WebhookSubscription, type WebhookEvent } from '../../db/entities/Webhook';
import type { AnnouncedRun } from '../../workflows/activityTypes';
import type { RunStatus } from '../../workflows/messages';

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
 * The task queue of the delivery activities, beside the runs' own: deliveries get activity slots of their
 * own in the worker, so receivers that hang (10 s an attempt) can never take the slots runs need.
 */
export const webhookTaskQueue = (runsTaskQueue: string) => `${runsTaskQueue}-webhooks`;

/**
 * Announces a status change from the run's own path at a cost that does not grow with the number
 * of subscribers: one indexed look-up and, only when someone listens, one workflow start. The fan-out
 * workflow then records the deliveries and starts one delivery workflow each (dispatchRunWebhooks).
 */
export async function announceRun(
  em: EntityManager,
  client: Client,
  taskQueue: string,
  run: AnnouncedRun,
): Promise<void> {
  const type = ANNOUNCED[run.status];
  if (!type) return;
  const listening = await em.count(WebhookSubscription, {
    workspaceId: run.workspaceId,
    deletedAt: null,
    status: 'active',
    events: { $contains: [type] },
  });
  if (listening === 0) return;
  const snapshot = announcedRun(run);
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
}

/**
 * Records the event (its body serialised once, `id` the event's) and one delivery per matching live
 * subscription referencing it, and returns the ids of this event's deliveries still pending; runs in the
 * fan-out workflow, off the run's own path (a receiver never delays the run), which then delivers each.
 * Idempotent: the event is unique per (run, type, event key) and the delivery rows per (subscription,
 * event), so a retry after a crash records nothing twice and sends the body recorded the first time.
 */
export async function recordRunDeliveries(em: EntityManager, run: AnnouncedRun): Promise<string[]> {
  const type = ANNOUNCED[run.status];
  if (!type) return [];
  const eventKey = run.pendingAction?.id ?? 'final';
  const subscriptions = await em.find(WebhookSubscription, {
    workspaceId: run.workspaceId,
    deletedAt: null,
    status: 'active',
    events: { $contains: [type] },
  });
  if (subscriptions.length === 0) return [];
  const conn = em.getConnection();
  const event = new WebhookEventRecord(run.workspaceId, run.id, type, eventKey, '');
  // The body of docs/api/webhooks.md, serialised once so every subscriber and attempt gets identical bytes.
  event.body = JSON.stringify({
    id: event.id,
    type,
    run: { id: run.id, status: run.status, output: run.output ?? null, error: run.error ?? null },
  });
  // The event row, new or (a retried fan-out) the one recorded the first time, in one statement.
  const findEvent = `select id from webhook_events where run_id = ? and type = ? and event_key = ?`;
  let [recorded]: Array<{ id: string }> = await conn.execute(
    `with added as (
       insert into webhook_events (id, created_at, updated_at, workspace_id, run_id, type, event_key, body)
       values (?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (run_id, type, event_key) do nothing returning id)
     select id from added union all (${findEvent})`,
    [event.id, event.createdAt, event.createdAt, run.workspaceId, run.id, type, eventKey, event.body].concat([
      run.id,
      type,
      eventKey,
    ]),
  );
  // Inserted by a concurrent try after this statement began: committed by now.
  recorded ??= ((await conn.execute(findEvent, [run.id, type, eventKey])) as Array<{ id: string }>)[0];
  // One statement for every subscriber, which also says which deliveries of the event are still pending:
  // the first attempts wait for it.
  const rows = subscriptions.map(
    (sub) => new WebhookDelivery(sub.id, run.workspaceId, run.id, type, eventKey, recorded.id),
  );
  const findDeliveries = `select id, subscription_id, status from webhook_deliveries
     where run_id = ? and type = ? and event_key = ?`;
  let deliveries: Array<{ id: string; subscription_id: string; status: string }> = await conn.execute(
    `with added as (
       insert into webhook_deliveries (id, created_at, updated_at, subscription_id, workspace_id, run_id, type, event_key, event_id, status)
       values ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')").join(', ')}
       on conflict (subscription_id, run_id, type, event_key) do nothing
       returning id, subscription_id, status)
     select * from added union all (${findDeliveries})`,
    rows
      .flatMap((d) => [
        d.id,
        d.createdAt,
        d.createdAt,
        d.subscriptionId,
        run.workspaceId,
        run.id,
        type,
        eventKey,
        recorded.id,
      ])
      .concat([run.id, type, eventKey]),
  );
  // A subscriber whose row neither statement part saw was recorded by a concurrent try meanwhile.
  const seen = new Set(deliveries.map((d) => d.subscription_id));
  if (subscriptions.some((sub) => !seen.has(sub.id))) {
    deliveries = await conn.execute(findDeliveries, [run.id, type, eventKey]);
  }
  return deliveries
    .filter((d) => d.status === 'pending')
    .map((d) => d.id)
    .sort();
}
