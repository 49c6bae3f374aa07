import { condition } from '@temporalio/workflow';
import { approverKey, durationMs, type ApprovalPolicy, type GateApproval } from './approvalPolicy';
import type { ApprovePayload, PolicyProgress } from './messages';

/**
 * An approval gate under a policy (docs/api/runs.md#approval-policies), shared by the run and the flow
 * workflows. The workflow is the source of truth: each approval arrives as its own signal and is counted
 * here, once per person; the expiry, the escalation and the reminders are durable timers of the workflow
 * (a `condition` with a timeout), never a poll.
 */

/** What a gate came to: approved, rejected by a person, or expired (`onExpiry` says how it ends). */
export type PolicyOutcome =
  | { approved: true; approvals: GateApproval[] }
  | { approved: false; comment: string; expiry: 'reject' | 'fail' | null };

/** A change of the gate for the read model and the run's event stream. */
export type PolicyEvent = { kind: 'approved' | 'rejected'; answer: GateApproval } | { kind: 'escalated' };

export interface PolicyHooks {
  /** Shows `progress` in the read model, with the event that changed it. */
  show(progress: PolicyProgress, event: PolicyEvent): Promise<void>;
  /** Tells the approvers who have not answered (a gate opened, a reminder, an escalation). */
  notify(reason: 'opened' | 'reminder' | 'escalated', progress: PolicyProgress): Promise<void>;
}

/** The answers a gate has received, fed by the signal handler; counts each person once. */
export class PolicyTally {
  readonly approvals: GateApproval[] = [];
  rejection: GateApproval | undefined;
  /** An answer without a person: one the service gives itself (an eval's case), which settles the gate. */
  byService: ApprovePayload | undefined;

  constructor(readonly policy: ApprovalPolicy) {}

  get settled(): boolean {
    return (
      this.rejection !== undefined || this.byService !== undefined || this.approvals.length >= this.policy.required
    );
  }

  take(payload: ApprovePayload, now: string): void {
    if (this.settled) return;
    if (!payload.by) {
      this.byService = payload;
      return;
    }
    const answer: GateApproval = {
      userId: payload.by.userId,
      keyId: payload.by.keyId,
      at: payload.at ?? now,
      comment: payload.comment ?? null,
    };
    if (!payload.approved) {
      this.rejection = answer;
      return;
    }
    const who = approverKey(answer);
    if (!this.approvals.some((a) => approverKey(a) === who)) this.approvals.push(answer);
  }
}

/** What a gate under `policy` shows when it opens at `openedAt` (workflow time, ms). */
export function openingProgress(policy: ApprovalPolicy, openedAt: number): PolicyProgress {
  const expiresMs = policy.expiresAfter ? durationMs(policy.expiresAfter) : null;
  return {
    policy,
    approvals: [],
    remaining: policy.required,
    expiresAt: expiresMs ? new Date(openedAt + expiresMs).toISOString() : null,
    escalated: false,
  };
}

/**
 * Waits until `tally` is settled or the policy's clock runs out, showing every approval as it is counted.
 * Escalation (`onExpiry: escalate`) widens the approvers once and restarts the clock; the next expiry
 * rejects. The gate's status is already set; this tells the approvers it opened.
 */
export async function awaitPolicy(tally: PolicyTally, hooks: PolicyHooks, openedAt: number): Promise<PolicyOutcome> {
  const { policy } = tally;
  const expiresMs = policy.expiresAfter ? durationMs(policy.expiresAfter) : null;
  const remindMs = policy.remindAfter ? durationMs(policy.remindAfter) : null;
  let deadline = expiresMs ? openedAt + expiresMs : null;
  let nextReminder = remindMs ? openedAt + remindMs : null;
  let escalated = false;
  let shown = 0;
  const progress = (): PolicyProgress => ({
    policy,
    approvals: tally.approvals.slice(0, shown),
    remaining: Math.max(0, policy.required - shown),
    expiresAt: deadline === null ? null : new Date(deadline).toISOString(),
    escalated,
  });
  await hooks.notify('opened', progress());

  for (;;) {
    while (shown < tally.approvals.length) {
      shown++;
      await hooks.show(progress(), { kind: 'approved', answer: tally.approvals[shown - 1] });
    }
    if (tally.rejection) {
      await hooks.show(progress(), { kind: 'rejected', answer: tally.rejection });
      return { approved: false, comment: tally.rejection.comment ?? 'The approval was rejected', expiry: null };
    }
    if (tally.byService) {
      const given = tally.byService;
      if (given.approved) return { approved: true, approvals: tally.approvals };
      return { approved: false, comment: given.comment ?? 'The approval was rejected', expiry: null };
    }
    if (shown >= policy.required) return { approved: true, approvals: tally.approvals };

    const moved = () => tally.approvals.length > shown || tally.settled;
    const wakeAt = Math.min(deadline ?? Infinity, nextReminder ?? Infinity);
    if (wakeAt === Infinity) {
      await condition(moved);
      continue;
    }
    if (wakeAt > Date.now() && (await condition(moved, wakeAt - Date.now()))) continue;

    const now = Date.now();
    if (deadline !== null && now >= deadline) {
      if (policy.onExpiry === 'escalate' && !escalated && expiresMs) {
        escalated = true;
        deadline = now + expiresMs;
        await hooks.show(progress(), { kind: 'escalated' });
        await hooks.notify('escalated', progress());
        continue;
      }
      const counted = `${shown} of ${policy.required} approvals`;
      return policy.onExpiry === 'fail'
        ? { approved: false, expiry: 'fail', comment: `The approval expired after ${policy.expiresAfter} (${counted})` }
        : {
            approved: false,
            expiry: 'reject',
            comment: `Rejected: the approval expired after ${policy.expiresAfter} (${counted})`,
          };
    }
    if (nextReminder !== null && remindMs && now >= nextReminder) {
      nextReminder = now + remindMs;
      await hooks.notify('reminder', progress());
    }
  }
}
