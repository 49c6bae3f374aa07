import type { EntityManager } from '@mikro-orm/postgresql';
import { FlowGateAnswer } from '../../db/entities/FlowGateAnswer';
import { FlowRun } from '../../db/entities/FlowRun';
import { auditContextOf, type RequestMeta } from '../audit/context';
import { answerThroughLink, linkGate, type LinkClaim, type LinkPage } from '../shared/approvalLinks';
import type { RelayDeps } from '../shared/outbox/relay';
import { flowPolicyGateOf, type FlowPolicyGate } from './approvalAnswers';
import { answerFlowApproval } from './runs';

/**
 * What a one-click link to a flow run's approval step comes to (docs/api/flows.md#approval-policies): the
 * confirm page it opens, and the answer its confirmation gives through the approval route's own function,
 * so it is judged by the step's policy, audited and counted like any answer. The token was checked (genuine,
 * not expired) by the caller (domain/shared/approvalLinks.ts); this checks what it answers.
 */

/** The confirm page of a flow run link (GET): it shows the step's message and answers nothing. */
export async function openFlowLink(em: EntityManager, claim: LinkClaim): Promise<LinkPage> {
  const checked = await check(em, claim);
  if ('page' in checked) return checked.page;
  const { gate } = checked;
  return {
    kind: 'confirm',
    decision: claim.decision,
    asks: `Step "${gate.step}" of flow run ${claim.subjectId} waits for approval (${gate.remaining} more needed).`,
    shows: { caption: 'The step asks', text: gate.message },
  };
}

/** Gives the answer of a flow run link (POST), as its user, under the step's policy like any answer. */
export async function confirmFlowLink(
  deps: RelayDeps,
  em: EntityManager,
  claim: LinkClaim,
  meta: RequestMeta,
): Promise<LinkPage> {
  const checked = await check(em, claim);
  if ('page' in checked) return checked.page;
  return answerThroughLink(claim, checked.gate.remaining, 'flow run', (who, approved) =>
    answerFlowApproval(deps, em, who, claim.subjectId, { approved }, auditContextOf(who, meta), claim.actionId),
  );
}

async function check(em: EntityManager, claim: LinkClaim): Promise<{ gate: FlowPolicyGate } | { page: LinkPage }> {
  const used = await em.findOne(FlowGateAnswer, {
    flowRunId: claim.subjectId,
    actionId: claim.actionId,
    userId: claim.userId,
  });
  const run = used ? null : await em.findOne(FlowRun, { id: claim.subjectId, workspaceId: claim.workspaceId });
  return linkGate(
    claim,
    used,
    run?.status === 'waiting_approval' ? flowPolicyGateOf(run.pendingApproval ?? null) : null,
  );
}
