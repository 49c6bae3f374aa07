import type { ApprovalPolicy, GateApproval, Role } from '../types';
import { when } from './format';

/**
 * An approval as far as its policy goes: a run's pending action, or the approval step a flow run waits at
 * (`pendingApproval`, which has no `type`).
 */
export interface PolicyApproval {
  type?: string;
  policy?: ApprovalPolicy;
  approvals?: GateApproval[];
  remaining?: number;
  expiresAt?: string | null;
  escalated?: boolean;
}

/**
 * Whether the signed-in person is asked to answer `action`: any gate without a policy (anyone whose role
 * may answer it: `mayAnswer`), or an approval whose approvers name them (by role or id, `escalateTo` once
 * escalated) that they have not answered yet. The service still decides (self-approval is only known there).
 */
export function waitsOnMe(
  action: PolicyApproval | null,
  me: { userId: string; role: Role },
  mayAnswer = true,
): boolean {
  if (!action) return false;
  const policy = action.policy;
  if ((action.type !== undefined && action.type !== 'approval') || !policy) return mayAnswer;
  if (action.approvals?.some((a) => a.userId === me.userId)) return false;
  const sets = action.escalated && policy.escalateTo ? [policy.approvers, policy.escalateTo] : [policy.approvers];
  return sets.some((s) => s.roles?.includes(me.role) || s.userIds?.includes(me.userId));
}

/** The policy of an approval (a run's gate, a flow run's step) and the approvals counted so far. */
export function ApprovalProgress({ action }: { action: PolicyApproval }) {
  const policy = action.policy;
  if (!policy) return null;
  const who = [
    ...(policy.approvers.roles ?? []).map((r) => `${r}s`),
    ...(policy.approvers.userIds ?? []).map((id) => `user ${id.slice(0, 8)}`),
  ].join(', ');
  return (
    <div className="approval-progress" aria-label="Approval policy">
      <p>
        {policy.required} approval{policy.required === 1 ? '' : 's'} needed from {who}
        {action.escalated ? ' (escalated)' : ''}; {action.remaining ?? policy.required} still missing.
        {action.expiresAt ? ` Expires ${when(action.expiresAt)}.` : ''}
        {policy.forbidSelfApproval ? ' The person who started the run may not approve it.' : ''}
        {policy.allowKeys ? '' : ' API keys may not answer.'}
      </p>
      {action.approvals?.length ? (
        <ul aria-label="Approvals so far">
          {action.approvals.map((a) => (
            <li key={`${a.userId ?? a.keyId}`}>
              {a.userId ? `user ${a.userId.slice(0, 8)}` : `key ${a.keyId?.slice(0, 8)}`} approved {when(a.at)}
              {a.comment ? `: ${a.comment}` : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p className="small muted">No approvals yet.</p>
      )}
    </div>
  );
}
