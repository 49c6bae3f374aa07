import type { EntityManager } from '@mikro-orm/postgresql';
import { FlowGateAnswer } from '../../db/entities/FlowGateAnswer';
import { FlowRun } from '../../db/entities/FlowRun';
import type { Config } from '../../platform/config';
import type { Mailer } from '../../platform/mailer';
import { approversOf, eligibleMembers, starterOf } from '../runs/approvers';
import { approvalLinks, linkExpiry } from '../shared/approvalLinks';
import { flowPolicyGateOf } from './approvalAnswers';

/**
 * Tells the approvers of a flow's approval step under a policy (docs/api/flows.md#approval-policies): one
 * e-mail through the mailer to each eligible person who has not answered (the flow run's starter left out
 * when they may not approve), when the step opens, at each reminder and when it escalates. The mail carries
 * the person's signed one-click links (shared/approvalLinks.ts, answered by linkAnswers.ts) and names the
 * route that answers too.
 */

export interface FlowNoticeDeps {
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'secretKeys'>;
}

export type FlowNoticeReason = 'opened' | 'reminder' | 'escalated';

const SUBJECTS: Record<FlowNoticeReason, string> = {
  opened: 'Approval needed',
  reminder: 'Reminder: approval needed',
  escalated: 'Approval needed (escalated)',
};

/** Sends the notices of `reason` for the flow run's approval `actionId`; none once that step is not waiting. */
export async function notifyFlowApprovers(
  deps: FlowNoticeDeps,
  em: EntityManager,
  flowRunId: string,
  actionId: string,
  reason: FlowNoticeReason,
): Promise<number> {
  const run = await em.findOne(FlowRun, flowRunId);
  const gate = flowPolicyGateOf(run?.pendingApproval ?? null);
  if (!run || run.status !== 'waiting_approval' || !gate || gate.id !== actionId) return 0;
  const members = await eligibleMembers(em, run.workspaceId, approversOf(gate));
  const answered = new Set((await em.find(FlowGateAnswer, { flowRunId, actionId })).map((a) => a.userId));
  const starter = gate.policy.forbidSelfApproval ? await starterOf(em, run) : null;
  const expiresAt = linkExpiry(gate.expiresAt);
  let sent = 0;
  for (const member of members) {
    if (answered.has(member.userId) || starter?.userId === member.userId) continue;
    const links = approvalLinks(deps.config, {
      kind: 'flow_run',
      workspaceId: run.workspaceId,
      subjectId: run.id,
      actionId,
      userId: member.userId,
      expiresAt,
    });
    const text = [
      `Step "${gate.step}" of flow run ${run.id} waits for approval (${gate.remaining} more of ${gate.policy.required} needed):`,
      '',
      gate.message,
      '',
      ...(gate.expiresAt ? [`It expires at ${gate.expiresAt}.`, ''] : []),
      ...(links ? [`Approve: ${links.approve}`, `Reject: ${links.reject}`, ''] : []),
      `Or answer with POST ${deps.config.publicUrl}/v1/flow-runs/${run.id}/approval {"approved":true} (or false).`,
    ].join('\n');
    await deps.mailer.send({ to: member.email, subject: `${SUBJECTS[reason]}: flow run ${run.id}`, text });
    sent++;
  }
  return sent;
}
