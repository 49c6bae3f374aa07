import type { EntityManager } from '@mikro-orm/postgresql';
import { FlowGateAnswer } from '../../db/entities/FlowGateAnswer';
import type { FlowRun, PendingApproval } from '../../db/entities/FlowRun';
import { approverKey } from '../../workflows/approvalPolicy';
import type { ApprovalPayload } from '../../workflows/flowMessages';
import type { PolicyProgress } from '../../workflows/messages';
import type { ApiError } from '../errors';
import { ineligibleAnswer, type PolicyAnswer } from '../runs/approvalAnswers';
import { isEligible, personOf, starterOf, type Answerer } from '../runs/approvers';

/** A flow's approval step under a policy, as the flow run's row shows it while it waits. */
export type FlowPolicyGate = PendingApproval & PolicyProgress;

export function flowPolicyGateOf(pending: PendingApproval | null): FlowPolicyGate | null {
  return pending?.policy ? (pending as FlowPolicyGate) : null;
}

/**
 * Judges `answer` by `who` at the flow run's approval step under a policy (docs/api/flows.md#approval-policies),
 * with the rules of a run's gate: one answer per person (by session, key or both), keys only when the
 * policy allows them (as the user who made the key), never the person who started the flow run while
 * `forbidSelfApproval` holds (the manual run's caller, else whoever saved the flow), only the approvers
 * (widened by `escalateTo` once the step escalated). Call it in the transaction that holds the flow run's
 * row lock, so answers to one step take turns. Records the person's claim and answers the signal payload.
 * Throws 403 `forbidden` with `details.reason`, or `decided` (the caller's 409) once the step is decided.
 */
export async function judgeFlowPolicyAnswer(
  tx: EntityManager,
  run: FlowRun,
  gate: FlowPolicyGate,
  who: Answerer,
  answer: PolicyAnswer,
  decided: () => ApiError,
): Promise<ApprovalPayload> {
  const person = await personOf(tx, who);
  const key = approverKey(person);
  if (await tx.findOne(FlowGateAnswer, { flowRunId: run.id, actionId: gate.id, approver: key })) {
    throw ineligibleAnswer('already_answered_by_you');
  }
  const answers = await tx.find(FlowGateAnswer, { flowRunId: run.id, actionId: gate.id });
  if (answers.some((a) => !a.approved) || answers.length >= gate.policy.required) throw decided();
  const { policy } = gate;
  if (who.actor === 'api_key' && !policy.allowKeys) throw ineligibleAnswer('keys_not_allowed');
  if (policy.forbidSelfApproval) {
    const starter = await starterOf(tx, run);
    const same =
      (starter.userId !== null && starter.userId === person.userId) ||
      (starter.keyId !== null && starter.keyId === person.keyId);
    if (same) throw ineligibleAnswer('self_approval');
  }
  if (!(await isEligible(tx, run.workspaceId, gate, person))) throw ineligibleAnswer('not_an_approver');
  const row = new FlowGateAnswer(
    run.id,
    gate.id,
    key,
    person.userId,
    person.keyId,
    answer.approved,
    answer.comment ?? null,
  );
  tx.persist(row);
  return {
    actionId: gate.id,
    approved: answer.approved,
    comment: answer.comment,
    by: { userId: person.userId, keyId: person.keyId },
    at: row.createdAt.toISOString(),
  };
}
