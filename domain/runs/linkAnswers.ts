import type { EntityManager } from '@mikro-orm/postgresql';
import { auditContextOf, type RequestMeta } from '../audit/context';
import { GateAnswer } from '../../db/entities/GateAnswer';
import { Run } from '../../db/entities/Run';
import type { SecretKeyRing } from '../../platform/secrets';
import { ApiError } from '../errors';
import type { RelayDeps } from '../shared/outbox/relay';
import { readLink, type LinkClaim } from './approvalLinks';
import { answerPolicyGate, policyGateOf, type PolicyGate } from './approvalAnswers';

/**
 * What a one-click link from an approval e-mail comes to (docs/api/runs.md#one-click-links): the confirm
 * page it opens, and the answer its confirmation gives. Every outcome is a page a person can read; none is
 * an error status a browser shows as a failure of the service.
 */
export type LinkPage =
  | { kind: 'confirm'; claim: LinkClaim; gate: PolicyGate }
  | { kind: 'answered'; claim: LinkClaim; remaining: number }
  | { kind: 'invalid' | 'expired' | 'used' | 'closed' }
  | { kind: 'refused'; message: string };

/** The confirm page of `token` (GET): it shows the proposal and answers nothing. */
export async function openLink(em: EntityManager, ring: SecretKeyRing | undefined, token: string): Promise<LinkPage> {
  const checked = await check(em, ring, token);
  if ('kind' in checked) return checked;
  return { kind: 'confirm', claim: checked.claim, gate: checked.gate };
}

/** Gives the answer `token` stands for (POST), as its user, under the gate's policy like any answer. */
export async function confirmLink(
  deps: RelayDeps,
  em: EntityManager,
  ring: SecretKeyRing | undefined,
  token: string,
  meta: RequestMeta,
): Promise<LinkPage> {
  const checked = await check(em, ring, token);
  if ('kind' in checked) return checked;
  const { claim, gate } = checked;
  const who = { actor: 'session', workspaceId: claim.workspaceId, userId: claim.userId } as const;
  try {
    await answerPolicyGate(
      deps,
      em,
      who,
      claim.runId,
      claim.actionId,
      { approved: claim.decision === 'approve' },
      auditContextOf(who, meta),
    );
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'forbidden' && (err.details as { reason?: string })?.reason === 'already_answered_by_you') {
      return { kind: 'used' };
    }
    if (err.code === 'forbidden') return { kind: 'refused', message: err.message };
    return { kind: 'closed' };
  }
  return { kind: 'answered', claim, remaining: claim.decision === 'approve' ? Math.max(0, gate.remaining - 1) : 0 };
}

async function check(
  em: EntityManager,
  ring: SecretKeyRing | undefined,
  token: string,
): Promise<{ claim: LinkClaim; gate: PolicyGate } | { kind: 'invalid' | 'expired' | 'used' | 'closed' }> {
  const claim = readLink(ring, token);
  if (!claim) return { kind: 'invalid' };
  if (Date.now() / 1000 > claim.expiresAt) return { kind: 'expired' };
  const used = await em.findOne(GateAnswer, { runId: claim.runId, actionId: claim.actionId, userId: claim.userId });
  if (used) return { kind: 'used' };
  const run = await em.findOne(Run, { id: claim.runId, workspaceId: claim.workspaceId });
  const gate = policyGateOf(run?.pendingAction ?? null);
  if (!run || run.status !== 'needs_approval' || !gate || gate.id !== claim.actionId) return { kind: 'closed' };
  return { claim, gate };
}
