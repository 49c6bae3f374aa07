import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../platform/config';
import { allKeys, derivedKey, type SecretKeyRing } from '../../platform/secrets';
import { ApiError } from '../errors';

/**
 * One-click answers from an approval e-mail (docs/api/runs.md#one-click-links), for a run's gate and a flow
 * run's approval step alike. A link's token is bound to what it answers (its `kind` and id), the workspace,
 * the gate, the person and the decision, and expires with the gate: `<payload>.<mac>`, both base64url, the
 * MAC an HMAC-SHA256 under a key derived from `SVC_SECRETS_KEY` for this purpose alone (earlier keys of the
 * ring still verify). It is single use because a person answers a gate once: a second click finds the
 * answer given. The link opens a confirm page; only its POST answers, so a mail scanner that follows links
 * never approves. This file knows no area: each area answers the links of its own kind.
 */

/** What a link answers: a run's approval gate, or a flow run's approval step. */
export const LINK_KINDS = ['run', 'flow_run'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
export type LinkDecision = 'approve' | 'reject';

export interface LinkClaim {
  kind: LinkKind;
  workspaceId: string;
  /** The id of the run or flow run whose approval the link answers. */
  subjectId: string;
  actionId: string;
  userId: string;
  decision: LinkDecision;
  /** Unix seconds after which the link does nothing. */
  expiresAt: number;
}

/** What a link comes to, as a page a person reads; none is an error status a browser shows as a failure. */
export type LinkPage =
  | {
      kind: 'confirm';
      decision: LinkDecision;
      /** What waits, in a sentence (`Run … waits for approval (1 more needed).`). */
      asks: string;
      /** What the approval is about: a caption and the text shown under it. */
      shows: { caption: string; text: string };
    }
  | { kind: 'answered'; decision: LinkDecision; remaining: number; subject: string }
  | { kind: 'invalid' | 'expired' | 'used' | 'closed' }
  | { kind: 'refused'; message: string };

const PURPOSE = 'svc approval links';
/** Without an expiry a link lives a week: long enough for a person, short enough for a stolen mail to go stale. */
const DEFAULT_LINK_SECONDS = 7 * 86_400;

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

/** The token of a link for `claim`; null without a secrets key (development), when mail carries no links. */
export function signLink(ring: SecretKeyRing | undefined, claim: LinkClaim): string | null {
  if (!ring) return null;
  const payload = Buffer.from(
    JSON.stringify([
      claim.kind,
      claim.workspaceId,
      claim.subjectId,
      claim.actionId,
      claim.userId,
      claim.decision,
      claim.expiresAt,
    ]),
  ).toString('base64url');
  return `${payload}.${mac(derivedKey(ring.current, PURPOSE).key, payload).toString('base64url')}`;
}

/** What a token says, when one of the ring's keys made it; null for anything else. Expiry is the caller's. */
export function readLink(ring: SecretKeyRing | undefined, token: string): LinkClaim | null {
  if (!ring || token.length > 1000) return null;
  const dot = token.indexOf('.');
  if (dot < 1) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const genuine = allKeys(ring).some((k) => {
    const expected = mac(derivedKey(k, PURPOSE).key, payload);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!genuine) return null;
  try {
    const [kind, workspaceId, subjectId, actionId, userId, decision, expiresAt] = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as [LinkKind, string, string, string, string, LinkDecision, number];
    if (!LINK_KINDS.includes(kind)) return null;
    return { kind, workspaceId, subjectId, actionId, userId, decision, expiresAt };
  } catch {
    return null;
  }
}

/**
 * The claim of `token` when it is genuine and not expired, else the page that says why not. What it
 * answers is for the claim's area to check.
 */
export function checkLink(ring: SecretKeyRing | undefined, token: string): { claim: LinkClaim } | { page: LinkPage } {
  const claim = readLink(ring, token);
  if (!claim) return { page: { kind: 'invalid' } };
  if (Date.now() / 1000 > claim.expiresAt) return { page: { kind: 'expired' } };
  return { claim };
}

/** When the links of a gate expire (Unix seconds): with the gate, else a week from now. */
export function linkExpiry(gateExpiresAt: string | null | undefined): number {
  return gateExpiresAt
    ? Math.floor(Date.parse(gateExpiresAt) / 1000)
    : Math.floor(Date.now() / 1000) + DEFAULT_LINK_SECONDS;
}

/** The approve and reject links of one person at one gate; null without a secrets key. */
export function approvalLinks(
  config: Pick<Config, 'publicUrl' | 'secretKeys'>,
  claim: Omit<LinkClaim, 'decision'>,
): { approve: string; reject: string } | null {
  const approve = signLink(config.secretKeys, { ...claim, decision: 'approve' });
  const reject = signLink(config.secretKeys, { ...claim, decision: 'reject' });
  if (!approve || !reject) return null;
  return { approve: `${config.publicUrl}/approvals/${approve}`, reject: `${config.publicUrl}/approvals/${reject}` };
}

/**
 * The page of an answer the area's answer function refused: the person answered already (a second click),
 * the policy does not admit them (their reason's message), or the gate is no longer open. Null for any other
 * error (the service unavailable), which the caller lets through: nothing was answered, and the link still works.
 */
function refusedLinkPage(err: ApiError): LinkPage | null {
  if (err.code === 'forbidden' && (err.details as { reason?: string })?.reason === 'already_answered_by_you') {
    return { kind: 'used' };
  }
  if (err.code === 'forbidden') return { kind: 'refused', message: err.message };
  if (err.code === 'run.invalid_state' || err.code === 'not_found') return { kind: 'closed' };
  return null;
}

/** Who answers through a link: its person, as a session of the workspace the link names. */
export interface LinkAnswerer {
  actor: 'session';
  workspaceId: string;
  userId: string;
}

/**
 * Gives a link's answer as its person through `answer` (the area's own answer function, so the gate's policy
 * judges, audits and counts it like any answer), and the page saying what came of it; a refusal is a page.
 * `remaining` is what the gate still needed before this answer.
 */
export async function answerThroughLink(
  claim: LinkClaim,
  remaining: number,
  subject: string,
  answer: (who: LinkAnswerer, approved: boolean) => Promise<unknown>,
): Promise<LinkPage> {
  const who: LinkAnswerer = { actor: 'session', workspaceId: claim.workspaceId, userId: claim.userId };
  const approved = claim.decision === 'approve';
  try {
    await answer(who, approved);
  } catch (err) {
    const shown = err instanceof ApiError ? refusedLinkPage(err) : null;
    if (!shown) throw err;
    return shown;
  }
  return { kind: 'answered', decision: claim.decision, remaining: approved ? Math.max(0, remaining - 1) : 0, subject };
}
