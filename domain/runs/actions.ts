import type { EntityManager } from '@mikro-orm/postgresql';
import { Feedback } from '../../db/entities/Feedback';
import { Run } from '../../db/entities/Run';
import type { Temporal } from '../../platform/temporal';
import {
  approveSignal,
  cancelSignal,
  inputSignal,
  reviewSignal,
  runWorkflowId,
  TERMINAL_STATUSES,
  type ApprovePayload,
  type InputPayload,
  type ReviewPayload,
  type RunStatus,
} from '../../workflows/messages';
import { ApiError } from '../errors';
import { findRun } from './find';

const invalidState = (status: RunStatus) =>
  new ApiError('run.invalid_state', `The run is ${status}; this action does not apply`, { status });

/** The answers a person gives at a gate, by the gate's status (docs/api/runs.md). */
export type GateAnswer =
  | { gate: 'input'; payload: Omit<InputPayload, 'actionId'> }
  | { gate: 'approve'; payload: Omit<ApprovePayload, 'actionId'> }
  | { gate: 'review'; payload: Omit<ReviewPayload, 'actionId'> };

const GATE_STATUS = { input: 'needs_input', approve: 'needs_approval', review: 'needs_review' } as const;

/**
 * Answers the pending action of a run. The answer claims the action in the read model with one
 * conditional UPDATE, so of two answers to the same action exactly one is accepted (the other gets
 * 409 `run.invalid_state`), then signals the workflow, which stays the judge of the transition.
 * Returns the run as it is after the signal.
 */
export async function answerGate(
  deps: { temporal: Temporal },
  em: EntityManager,
  workspaceId: string,
  runId: string,
  actionId: string | undefined,
  answer: GateAnswer,
): Promise<Run> {
  const claimed: Array<{ action_id: string }> = await em.getConnection().execute(
    `update runs set answered_action_id = pending_action->>'id', updated_at = now()
     where id = ? and workspace_id = ? and status = ? and pending_action is not null
       and (?::text is null or pending_action->>'id' = ?)
       and answered_action_id is distinct from pending_action->>'id'
     returning pending_action->>'id' as action_id`,
    [runId, workspaceId, GATE_STATUS[answer.gate], actionId ?? null, actionId ?? null],
  );
  if (claimed.length === 0) throw invalidState((await findRun(em, workspaceId, runId)).status);
  const claimedId = claimed[0].action_id;
  const handle = deps.temporal.client.workflow.getHandle(runWorkflowId(runId));
  try {
    await deps.temporal.call(() => {
      if (answer.gate === 'input') return handle.signal(inputSignal, { ...answer.payload, actionId: claimedId });
      if (answer.gate === 'approve') return handle.signal(approveSignal, { ...answer.payload, actionId: claimedId });
      return handle.signal(reviewSignal, { ...answer.payload, actionId: claimedId });
    });
  } catch (err) {
    // Temporal did not take the answer: release the claim so the caller can retry.
    await em.nativeUpdate(Run, { id: runId, answeredActionId: claimedId }, { answeredActionId: null });
    throw err;
  }
  return em.fork().findOneOrFail(Run, runId);
}

/** Asks the workflow to cancel a run in any non-terminal status; a finished run is 409. */
export async function cancelRun(
  deps: { temporal: Temporal },
  em: EntityManager,
  workspaceId: string,
  runId: string,
): Promise<Run> {
  const run = await findRun(em, workspaceId, runId);
  if (TERMINAL_STATUSES.includes(run.status)) throw invalidState(run.status);
  await deps.temporal.call(() => deps.temporal.client.workflow.getHandle(runWorkflowId(run.id)).signal(cancelSignal));
  return run;
}

export interface FeedbackInput {
  rating: number;
  correctedOutput?: unknown;
  comment?: string;
}

/** Records a rating of a run, optionally with a corrected output. */
export async function recordFeedback(
  em: EntityManager,
  workspaceId: string,
  runId: string,
  input: FeedbackInput,
): Promise<Feedback> {
  const run = await findRun(em, workspaceId, runId);
  const fb = new Feedback(run.id, run.workspaceId, input.rating, input.correctedOutput ?? null, input.comment ?? null);
  await em.persist(fb).flush();
  return fb;
}
