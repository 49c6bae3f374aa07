import type { EntityManager } from '@mikro-orm/postgresql';
import type { PendingAction } from '../../workflows/messages';
import type { PolicyEvent } from '../../workflows/policyGate';
import { RUN_EVENTS_CHANNEL, type RunEventType } from './events';

/**
 * The read model's side of an approval gate under a policy (docs/api/runs.md#approval-policies): the
 * workflow counts, and this shows what it counted. The pending action is replaced and the event appended
 * in one statement, only while the gate is still the run's pending action and shows something else, so a
 * retried write neither doubles the event nor revives a gate that closed.
 */
export async function showApproval(
  em: EntityManager,
  runId: string,
  action: PendingAction,
  event: PolicyEvent,
): Promise<void> {
  const { type, data } = eventOf(runId, action, event);
  await em.execute(
    `with upd as (
       update runs set pending_action = ?::jsonb, updated_at = ?
        where id = ? and status = 'needs_approval' and pending_action->>'id' = ?
          and pending_action is distinct from ?::jsonb
       returning id),
     notified as (select pg_notify(?, ?) from upd)
     insert into run_events (run_id, type, data) select upd.id, ?, ?::jsonb from upd, notified`,
    [
      JSON.stringify(action),
      new Date(),
      runId,
      action.id,
      JSON.stringify(action),
      RUN_EVENTS_CHANNEL,
      runId,
      type,
      JSON.stringify(data),
    ],
  );
}

function eventOf(runId: string, action: PendingAction, event: PolicyEvent): { type: RunEventType; data: unknown } {
  const progress = action.type === 'approval' ? action : undefined;
  if (event.kind === 'escalated') {
    return {
      type: 'run.approval_escalated',
      data: {
        runId,
        actionId: action.id,
        escalateTo: progress?.policy?.escalateTo ?? null,
        expiresAt: progress?.expiresAt ?? null,
      },
    };
  }
  return {
    type: 'run.approval',
    data: {
      runId,
      actionId: action.id,
      decision: event.kind,
      ...event.answer,
      remaining: progress?.remaining ?? 0,
    },
  };
}
