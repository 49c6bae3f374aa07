import type { EntityManager } from '@mikro-orm/postgresql';
import { GateAnswer } from '../../db/entities/GateAnswer';
import { Run } from '../../db/entities/Run';
import type { Config } from '../../platform/config';
import type { Mailer } from '../../platform/mailer';
import { approvalLinks, linkExpiry } from '../shared/approvalLinks';
import { policyGateOf, type PolicyGate } from './approvalAnswers';
import { approversOf, eligibleMembers, starterOf } from './approvers';

/**
 * Tells the approvers of a gate under a policy (docs/api/runs.md#approval-policies): one e-mail through the
 * mailer to each eligible person who has not answered (the run's starter left out when they may not
 * approve), with the proposal and a signed one-click link for each decision (shared/approvalLinks.ts). Sent when
 * the gate opens, at each reminder and when it escalates.
 */

export interface NoticeDeps {
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'secretKeys'>;
}

/** The proposal as the mail shows it, cut so a large output does not make a huge mail. */
const PROPOSAL_CHARS = 2000;

export type NoticeReason = 'opened' | 'reminder' | 'escalated';

const SUBJECTS: Record<NoticeReason, string> = {
  opened: 'Approval needed',
  reminder: 'Reminder: approval needed',
  escalated: 'Approval needed (escalated)',
};

/** Sends the notices of `reason` for the run's gate `actionId`; nothing when that gate is no longer open. */
export async function notifyApprovers(
  deps: NoticeDeps,
  em: EntityManager,
  runId: string,
  actionId: string,
  reason: NoticeReason,
): Promise<number> {
  const run = await em.findOne(Run, runId);
  const gate = policyGateOf(run?.pendingAction ?? null);
  if (!run || run.status !== 'needs_approval' || !gate || gate.id !== actionId) return 0;
  const members = await eligibleMembers(em, run.workspaceId, approversOf(gate));
  const answered = new Set((await em.find(GateAnswer, { runId, actionId })).map((a) => a.userId));
  const starter = gate.policy.forbidSelfApproval ? await starterOf(em, run) : null;
  const expiresAt = linkExpiry(gate.expiresAt);
  let sent = 0;
  for (const member of members) {
    if (answered.has(member.userId) || starter?.userId === member.userId) continue;
    const links = approvalLinks(deps.config, {
      kind: 'run',
      workspaceId: run.workspaceId,
      subjectId: runId,
      actionId,
      userId: member.userId,
      expiresAt,
    });
    await deps.mailer.send({
      to: member.email,
      subject: `${SUBJECTS[reason]}: run ${runId}`,
      text: mailText(run, gate, links),
    });
    sent++;
  }
  return sent;
}

function mailText(run: Run, gate: PolicyGate, links: { approve: string; reject: string } | null): string {
  const proposal = gate.tool
    ? `The run wants to call the tool ${gate.tool} with:\n${JSON.stringify(gate.args ?? {}, null, 2)}`
    : `The run proposes this output:\n${JSON.stringify(gate.proposedOutput ?? null, null, 2)}`;
  const lines = [
    `Run ${run.id} of agent ${run.agentId} waits for approval (${gate.remaining} more of ${gate.policy.required} needed).`,
    '',
    proposal.length > PROPOSAL_CHARS ? `${proposal.slice(0, PROPOSAL_CHARS)}\n…` : proposal,
    '',
  ];
  if (gate.expiresAt) lines.push(`It expires at ${gate.expiresAt}.`, '');
  if (links) lines.push(`Approve: ${links.approve}`, `Reject: ${links.reject}`, '');
  lines.push(`Or answer with POST /v1/runs/${run.id}/approve {"actionId":"${gate.id}","approved":true}.`);
  return lines.join('\n');
}
