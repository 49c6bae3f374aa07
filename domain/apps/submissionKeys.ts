import { createHmac } from 'node:crypto';
import { allKeys, derivedKey, type SecretKeyRing } from '../../platform/secrets';
import { newOpaqueToken, safeEqual, sha256Hex } from '../identity/secrets';

/**
 * An app submission's `Idempotency-Key` as the run keeps it (docs/api/apps.md#public-pages): bound to the app
 * and to the submitting client, so two visitors who happen to send the same key, or one key sent to two apps,
 * never meet; hashed, so the key itself is not stored. The space cannot occur in a key a caller of
 * `POST /v1/runs` sends (visible ASCII only), so the two never collide within a workspace either.
 */
export function submissionKey(appId: string, client: string, key: string): string {
  return `app ${sha256Hex(`${appId}\n${client}\n${key}`)}`;
}

const PURPOSE = 'svc app run tokens';

function derived(key: Parameters<typeof derivedKey>[0], runId: string, scopedKey: string): string {
  return createHmac('sha256', derivedKey(key, PURPOSE).key).update(`${runId}\n${scopedKey}`).digest('base64url');
}

/**
 * The status page's token of a new app run. Without a key it is random; with one it is derived from the run,
 * the scoped key and the secrets key (HMAC under a key of its own), so a replay of the submission can hand the
 * submitter the same token while the database still holds only its SHA-256. Without `SVC_SECRETS_KEY`
 * (development) it is random, and a replay cannot show it again.
 */
export function newRunToken(ring: SecretKeyRing | undefined, runId: string, scopedKey: string | null): string {
  return ring && scopedKey ? derived(ring.current, runId, scopedKey) : newOpaqueToken();
}

/**
 * The token a replayed submission shows again: the one derived under whichever key of the ring made the stored
 * hash, or null when none did (no secrets key, or the key that made it has left the ring).
 */
export function replayedRunToken(
  ring: SecretKeyRing | undefined,
  runId: string,
  scopedKey: string,
  storedHash: string,
): string | null {
  for (const key of ring ? allKeys(ring) : []) {
    const token = derived(key, runId, scopedKey);
    if (safeEqual(sha256Hex(token), storedHash)) return token;
  }
  return null;
}
