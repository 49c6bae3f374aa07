import type { EntityManager } from '@mikro-orm/postgresql';

/** The PostgreSQL channel that wakes the API's event streams (docs/api/runs.md, events; Temporal is never polled). */
export const RUN_EVENTS_CHANNEL = 'svc_run_events';

/**
 * `run.approval`: an answer counted at an approval gate under a policy; `run.approval_escalated`: its
 * approvers widened when it expired (docs/api/runs.md#approval-policies).
 */
export type RunEventType = 'run.status' | 'run.step' | 'run.approval' | 'run.approval_escalated';

/**
 * Appends one event to the run's stored stream and notifies listeners. Call it inside the same
 * transaction as the change it describes: NOTIFY is delivered on commit, so a listener never sees an
 * event whose change it cannot read yet.
 */
export async function appendRunEvent(
  em: EntityManager,
  runId: string,
  type: RunEventType,
  data: unknown,
): Promise<void> {
  const conn = em.getConnection();
  // Raw statements join the surrounding transaction only when handed its context explicitly.
  const trx = em.getTransactionContext();
  // One round trip for both: the notification is queued by the statement and sent at commit either way.
  await conn.execute(
    `with notified as (select pg_notify(?, ?))
     insert into run_events (run_id, type, data) select ?, ?, ?::jsonb from notified`,
    [RUN_EVENTS_CHANNEL, runId, runId, type, JSON.stringify(data)],
    'run',
    trx,
  );
}
