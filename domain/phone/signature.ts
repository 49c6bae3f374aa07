import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's `X-Twilio-Signature`: base64 of HMAC-SHA1, keyed with the number's webhook secret, over the
 * full URL the provider called followed by every form parameter as name then value, sorted by name.
 */
export function twilioSignature(secret: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', secret).update(data, 'utf8').digest('base64');
}

/** Whether `header` signs `params` at one of `urls` (the public address and the one the request reached). */
export function verifyTwilioSignature(
  secret: string,
  urls: string[],
  params: Record<string, string>,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const given = Buffer.from(header, 'utf8');
  return urls.some((url) => {
    const expected = Buffer.from(twilioSignature(secret, url, params), 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
