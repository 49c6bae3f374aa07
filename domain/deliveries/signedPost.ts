import { NotPublicAddressError, type Resolver } from '../../platform/net/publicAddress';
import { safeRequest, type CheckedConnections } from '../../platform/net/safeHttp';
import { openSecret } from '../../db/secretColumns';
import type { SecretBox, SecretSlot } from '../../platform/secrets';
import { SIGNATURE_HEADER, signatureHeader } from './signature';

/** 10 s per attempt; the request gives up a little earlier so the attempt is still recorded. */
export const ATTEMPT_TIMEOUT_MS = 9_000;

export interface DeliveryOptions {
  /** SVC_ALLOW_PRIVATE_WEBHOOKS: skip the public-address check (local development only). */
  allowPrivate: boolean;
  /** SVC_DNS_SERVERS: how the guard looks names up (default the system resolver). */
  resolver?: Resolver;
  /** The process's keep-alive connections to checked addresses (safeHttp.ts); absent, every attempt opens its own. */
  connections?: CheckedConnections;
  /** Opens the sealed secret each attempt signs with (platform/secrets.ts). */
  box: SecretBox;
}

/** One attempt as the delivery log keeps it. */
export interface SignedPostResult {
  at: string;
  statusCode: number | null;
  /** null when the receiver answered 2xx */
  error: string | null;
}

/**
 * One signed delivery attempt (docs/api/webhooks.md): POST of `body` to `url` through the outbound guard,
 * signed with `secret` over `<t>.<body>`, no redirect followed, at most 4 KiB of the answer read. Webhook
 * deliveries and save-output connections both send this way. Never throws: a failure is in `error`.
 */
export async function signedPost(
  target: {
    url: string;
    /** The secret as stored, opened here for this attempt only. */
    secret: string;
    secretSlot: SecretSlot;
    body: string;
    deliveryId: string;
    attempt: number;
    userAgent: string;
  },
  opts: DeliveryOptions,
): Promise<SignedPostResult> {
  const at = new Date();
  let statusCode: number | null = null;
  let error: string | null = null;
  let secret: string;
  try {
    secret = openSecret(opts.box, target.secret, target.secretSlot);
  } catch {
    // Sealed for another row or under a key no longer configured: nothing is sent unsigned or mis-signed.
    return { at: at.toISOString(), statusCode, error: 'the stored secret cannot be decrypted' };
  }
  try {
    const res = await safeRequest(target.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': target.userAgent,
        [SIGNATURE_HEADER]: signatureHeader(secret, target.body, Math.floor(at.getTime() / 1000)),
        'X-SVC-Delivery': target.deliveryId,
        'X-SVC-Attempt': String(target.attempt),
      },
      body: target.body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      allowPrivate: opts.allowPrivate,
      resolver: opts.resolver,
      connections: opts.connections,
      maxResponseBytes: 4096,
    });
    statusCode = res.status;
    if (res.status < 200 || res.status >= 300) error = `receiver answered ${res.status}`;
  } catch (err) {
    error = err instanceof NotPublicAddressError ? `url not public: ${err.reason}` : (err as Error).message;
  }
  return { at: at.toISOString(), statusCode, error };
}
