import { GateAnswer } from '../../db/entities/GateAnswer';
import { Run } from '../../db/entities/Run';
import { auditContextOf, type RequestMeta } from '../audit/context';
import { linkAnswers } from '../shared/linkAnswers';
import { answerPolicyGate, policyGateOf, type PolicyGate } from './approvalAnswers';

/**
 * One-click links to a run's gate (docs/api/runs.md#one-click-links): the confirm page shows the proposal, and the
 * confirmation answers through the approval route's own function, under the gate's policy like any answer.
 */
export const runLinkAnswers = linkAnswers<PolicyGate, RequestMeta>({
  subject: 'run',
  async lookup(em, claim) {
    const answered = await em.findOne(GateAnswer, {
      runId: claim.subjectId,
      actionId: claim.actionId,
      userId: claim.userId,
    });
    const run = answered ? null : await em.findOne(Run, { id: claim.subjectId, workspaceId: claim.workspaceId });
    return { answered, openGate: run?.status === 'needs_approval' ? policyGateOf(run.pendingAction ?? null) : null };
  },
  confirmPage(claim, gate) {
    const shows = gate.tool
      ? { caption: `The tool ${gate.tool} with`, text: JSON.stringify(gate.args ?? {}, null, 2) }
      : { caption: 'The output', text: JSON.stringify(gate.proposedOutput ?? null, null, 2).slice(0, 20_000) };
    return { asks: `Run ${claim.subjectId} waits for approval (${gate.remaining} more needed).`, shows };
  },
  answer: (deps, em, who, claim, approved, meta) =>
    answerPolicyGate(deps, em, who, claim.subjectId, claim.actionId, { approved }, auditContextOf(who, meta)),
});
