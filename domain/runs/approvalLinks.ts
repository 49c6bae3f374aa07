import { createHmac, timingSafeEqual } from 'node:crypto';
import { allKeys, derivedKey, type SecretKeyRing } from '../../platform/secrets';

/**
 * One-click answers from an approval e-mail (docs/api/runs.md#one-click-links). A link's token is bound to
 * the workspace, run, gate, person and decision, and expires with the gate: `<payload>.<mac>`, both
 * base64url, the MAC an HMAC-SHA256 under a key derived from `SVC_SECRETS_KEY` for this purpose alone
 * (earlier keys of the ring still verify). It is single use because a person answers a gate once: a
 * second click finds the answer given. The link opens a confirm page; only its POST answers, so a mail
 * scanner that follows links never approves.
 */

export interface LinkClaim {
  workspaceId: string;
  runId: string;
  actionId: string;
  userId: string;
  decision: 'approve' | 'reject';
  /** Unix seconds after which the link does nothing. */
  expiresAt: number;
}

const PURPOSE = 'svc approval links';

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

/** The token of a link for `claim`; null without a secrets key (development), when mail carries no links. */
export function signLink(ring: SecretKeyRing | undefined, claim: LinkClaim): string | null {
  if (!ring) return null;
  const payload = Buffer.from(
    JSON.stringify([claim.workspaceId, claim.runId, claim.actionId, claim.userId, claim.decision, claim.expiresAt]),
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
    const [workspaceId, runId, actionId, userId, decision, expiresAt] = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as [string, string, string, string, LinkClaim['decision'], number];
    return { workspaceId, runId, actionId, userId, decision, expiresAt };
  } catch {
    return null;
  }
}
