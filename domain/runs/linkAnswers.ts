import type { EntityManager } from '@mikro-orm/postgresql';
import { auditContextOf, type RequestMeta } from '../audit/context';
import { GateAnswer } from '../../db/entities/GateAnswer';
import { Run } from '../../db/entities/Run';
import { answerThroughLink, linkGate, type LinkClaim, type LinkPage } from '../shared/approvalLinks';
import type { RelayDeps } from '../shared/outbox/relay';
import { answerPolicyGate, policyGateOf, type PolicyGate } from './approvalAnswers';

/**
 * What a one-click link to a run's gate comes to (docs/api/runs.md#one-click-links): the confirm page it
 * opens, and the answer its confirmation gives. The token was checked (genuine, not expired) by the caller
 * (domain/shared/approvalLinks.ts); this checks what it answers.
 */

/** The confirm page of a run link (GET): it shows the proposal and answers nothing. */
export async function openRunLink(em: EntityManager, claim: LinkClaim): Promise<LinkPage> {
  const checked = await check(em, claim);
  if ('page' in checked) return checked.page;
  const { gate } = checked;
  const shows = gate.tool
    ? { caption: `The tool ${gate.tool} with`, text: JSON.stringify(gate.args ?? {}, null, 2) }
    : { caption: 'The output', text: JSON.stringify(gate.proposedOutput ?? null, null, 2).slice(0, 20_000) };
  return {
    kind: 'confirm',
    decision: claim.decision,
    asks: `Run ${claim.subjectId} waits for approval (${gate.remaining} more needed).`,
    shows,
  };
}

/** Gives the answer of a run link (POST), as its user, under the gate's policy like any answer. */
export async function confirmRunLink(
  deps: RelayDeps,
  em: EntityManager,
  claim: LinkClaim,
  meta: RequestMeta,
): Promise<LinkPage> {
  const checked = await check(em, claim);
  if ('page' in checked) return checked.page;
  return answerThroughLink(claim, checked.gate.remaining, 'run', (who, approved) =>
    answerPolicyGate(deps, em, who, claim.subjectId, claim.actionId, { approved }, auditContextOf(who, meta)),
  );
}

async function check(em: EntityManager, claim: LinkClaim): Promise<{ gate: PolicyGate } | { page: LinkPage }> {
  const used = await em.findOne(GateAnswer, { runId: claim.subjectId, actionId: claim.actionId, userId: claim.userId });
  const run = used ? null : await em.findOne(Run, { id: claim.subjectId, workspaceId: claim.workspaceId });
  return linkGate(claim, used, run?.status === 'needs_approval' ? policyGateOf(run.pendingAction ?? null) : null);
}
