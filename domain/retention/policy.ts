import { PLANS, type Plan } from '../../db/entities/Workspace';

/**
 * Days a workspace's run events, webhook deliveries and conversation messages are kept, by plan
 * (docs/operations.md#retention). Runs themselves, their outputs, the ledger and the audit log are not
 * subject to it.
 */
export const PLAN_RETENTION_DAYS: Record<Plan, number> = {
  free_trial: 7,
  starter: 30,
  business: 90,
  scale: 365,
};

/** Days done outbox rows are kept: a retried gate answer finds its first row by its key for a week. */
export const OUTBOX_DONE_DAYS = 7;

/** The days of every plan, or `override` (`SVC_RETENTION_DAYS`) for all of them when it is set. */
export function retentionDaysByPlan(override?: number): Record<Plan, number> {
  return Object.fromEntries(PLANS.map((p) => [p, override ?? PLAN_RETENTION_DAYS[p]])) as Record<Plan, number>;
}

/**
 * How long Temporal keeps a closed workflow's history: the shortest plan's days, so no history (which holds a
 * run's payloads, encrypted) outlives the events of any workspace it belongs to. Temporal's least is one day.
 */
export function namespaceRetentionDays(override?: number): number {
  return Math.max(1, Math.min(...Object.values(retentionDaysByPlan(override))));
}
