import { performance } from 'node:perf_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import { observed } from '../shared/observations';
import type { SecretSlot } from '../../platform/secrets';
import { recordAttempt, type DeliveryLog } from './deliveryLog';
import { signedPost, type DeliveryOptions, type SignedPostResult } from './signedPost';

/** What one attempt sends: `secret` as stored (sealed to `secretSlot`), opened only to sign this attempt. */
export interface SignedTarget {
  deliveryId: string;
  url: string;
  secret: string;
  secretSlot: SecretSlot;
  /** The bytes fixed when the delivery was recorded, the same on every attempt and redelivery. */
  body: string;
}

/** What one recorded attempt came to; `attempt_failed` may be followed by another. */
export type SignedOutcome = { outcome: 'delivered' } | { outcome: 'attempt_failed'; error: string };

/**
 * Attempt number `attempt` (1-based) of a signed delivery, not yet in the log: the POST that signedPost
 * makes (the URL checked again, no redirect, 10 s), with the kind's `User-Agent`. For callers that log in
 * batches (the webhook fan-out's first attempts). Never throws: a failure is in `error`.
 */
export function postSignedAttempt(
  log: DeliveryLog,
  target: SignedTarget,
  attempt: number,
  opts: DeliveryOptions,
): Promise<SignedPostResult> {
  const started = performance.now();
  return signedPost({ ...target, attempt, userAgent: log.userAgent }, opts).then((result) => {
    observed.deliveryAttempt(log.table, result.error ? 'failed' : 'delivered', (performance.now() - started) / 1000);
    return result;
  });
}

/**
 * Makes attempt number `attempt` of a signed delivery and records it in the kind's log: a 2xx marks the
 * delivery `succeeded` (finished); anything else (another status, a 3xx, a timeout, a refused address) is
 * `attempt_failed`, logged, and Temporal's retry policy makes the next one. Webhook deliveries and save-output
 * deliveries both send through here (docs/api/webhooks.md, docs/api/output-connections.md).
 * @throws only when the database fails (the attempt is then not recorded)
 */
export async function sendSignedAttempt(
  em: EntityManager,
  log: DeliveryLog,
  target: SignedTarget,
  attempt: number,
  opts: DeliveryOptions,
): Promise<SignedOutcome> {
  const result = await postSignedAttempt(log, target, attempt, opts);
  await recordAttempt(em, log, target.deliveryId, result, result.error ? undefined : 'succeeded');
  return result.error ? { outcome: 'attempt_failed', error: result.error } : { outcome: 'delivered' };
}
