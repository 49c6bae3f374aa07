import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-SVC-Signature';

/**
 * `t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 with the subscription's secret over "<t>.<raw body>">`
 * (docs/api/webhooks.md). `t` is the attempt time; the body bytes never change between attempts.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
