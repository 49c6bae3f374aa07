import { FlowGateAnswer } from '../../db/entities/FlowGateAnswer';
import { FlowRun } from '../../db/entities/FlowRun';
import { auditContextOf, type RequestMeta } from '../audit/context';
import { linkAnswers } from '../shared/linkAnswers';
import { flowPolicyGateOf, type FlowPolicyGate } from './approvalAnswers';
import { answerFlowApproval } from './runs';

/**
 * One-click links to a flow run's approval step (docs/api/flows.md#approval-policies): the confirm page shows the
 * step's message, and the confirmation answers through `POST /v1/flow-runs/{id}/approval`'s own function, naming
 * the step, so it is judged by the step's policy, audited and counted like any answer.
 */
export const flowLinkAnswers = linkAnswers<FlowPolicyGate, RequestMeta>({
  subject: 'flow run',
  async lookup(em, claim) {
    const answered = await em.findOne(FlowGateAnswer, {
      flowRunId: claim.subjectId,
      actionId: claim.actionId,
      userId: claim.userId,
    });
    const run = answered ? null : await em.findOne(FlowRun, { id: claim.subjectId, workspaceId: claim.workspaceId });
    const openGate = run?.status === 'waiting_approval' ? flowPolicyGateOf(run.pendingApproval ?? null) : null;
    return { answered, openGate };
  },
  confirmPage: (claim, gate) => ({
    asks: `Step "${gate.step}" of flow run ${claim.subjectId} waits for approval (${gate.remaining} more needed).`,
    shows: { caption: 'The step asks', text: gate.message },
  }),
  answer: (deps, em, who, claim, approved, meta) =>
    answerFlowApproval(deps, em, who, claim.subjectId, { approved }, auditContextOf(who, meta), claim.actionId),
});
