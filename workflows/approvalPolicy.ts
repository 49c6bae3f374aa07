/**
 * An approval policy (docs/api/runs.md#approval-policies): who may answer an approval gate, how many
 * must approve, and what happens when nobody does in time. Plain JSON, read by the run workflow (which
 * counts the approvals and keeps the timers) and by the API (which refuses ineligible answers).
 */

export const APPROVER_ROLES = ['owner', 'admin', 'member'] as const;
export type ApproverRole = (typeof APPROVER_ROLES)[number];

/** Who may approve: anyone with one of `roles`, or one of `userIds`. */
export interface Approvers {
  roles?: ApproverRole[];
  userIds?: string[];
}

export interface ApprovalPolicy {
  approvers: Approvers;
  /** How many distinct eligible people must approve (1..5); one rejection rejects. */
  required: number;
  /** The person who started the run may not approve it. */
  forbidSelfApproval: boolean;
  /** Whether an API key may answer (counted as the person who created it). */
  allowKeys: boolean;
  /** ISO-8601 duration after which the gate expires (`PT3S`, `P2D`). */
  expiresAfter?: string;
  onExpiry?: 'reject' | 'fail' | 'escalate';
  /** With `onExpiry: escalate`: who joins the approvers when the gate first expires. */
  escalateTo?: Approvers;
  /** ISO-8601 duration between reminders to the approvers who have not answered. */
  remindAfter?: string;
}

/** One approval counted at a gate; `keyId` when it came through an API key. */
export interface GateApproval {
  userId: string | null;
  keyId: string | null;
  at: string;
  comment: string | null;
}

/** Why an answer is refused (403 `forbidden`, `details.reason`). */
export const INELIGIBLE_REASONS = [
  'not_an_approver',
  'self_approval',
  'keys_not_allowed',
  'already_answered_by_you',
] as const;
export type IneligibleReason = (typeof INELIGIBLE_REASONS)[number];

const UNIT_MS: Record<string, number> = { W: 604_800_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1000 };

/**
 * Milliseconds of an ISO-8601 duration of weeks, days, hours, minutes and seconds (`P1W`, `P2DT3H`,
 * `PT1M30S`, `PT0.5S`); null for anything else (years and months have no fixed length). Scanned by hand:
 * a pattern for it would be easy to write super-linear.
 */
export function durationMs(text: string): number | null {
  if (text.length < 3 || text.length > 40 || text[0] !== 'P') return null;
  let total = 0;
  let inTime = false;
  let number = '';
  let parts = 0;
  const order = 'WDHMS';
  let last = -1;
  for (const ch of text.slice(1)) {
    if (ch === 'T') {
      if (inTime || number) return null;
      inTime = true;
      continue;
    }
    if ((ch >= '0' && ch <= '9') || ch === '.') {
      number += ch;
      continue;
    }
    const at = order.indexOf(ch);
    // W and D come before T; H, M, S after it; each unit once, in order
    if (at < 0 || !number || at <= last || at >= 2 !== inTime) return null;
    if (number.includes('.') && ch !== 'S') return null;
    const value = Number(number);
    if (!Number.isFinite(value)) return null;
    total += value * UNIT_MS[ch];
    last = at;
    number = '';
    parts++;
  }
  if (number || parts === 0 || (inTime && last < 2)) return null;
  return Math.round(total);
}

/** The person an answer counts as: a user, or a key no user is known to have made. */
export const approverKey = (who: { userId: string | null; keyId: string | null }) =>
  who.userId ? `user:${who.userId}` : `key:${who.keyId}`;
