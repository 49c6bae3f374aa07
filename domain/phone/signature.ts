import { createHmac, timingSafeEqual } from 'node:crypto';

/** A callback's form: every name with all the values it was sent with. */
export type FormParams = Record<string, string[]>;

/**
 * Twilio's `X-Twilio-Signature`: base64 of HMAC-SHA1 keyed with the account's Auth Token, over the full URL
 * Twilio called followed by every POST parameter as name then value, sorted by name (a repeated name gives
 * each of its distinct values, sorted). docs/api/phone.md#callbacks pins it with Twilio's published example.
 */
export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    for (const value of [...new Set(params[name])].sort()) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80' };

/**
 * The forms of one URL Twilio may have signed: as configured, and with the scheme's default port written
 * out or left off (Twilio signs what it was given, and some of its callers add the port).
 */
function urlForms(url: string): string[] {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const port = parsed ? DEFAULT_PORTS[parsed.protocol] : undefined;
  // a port other than the scheme's own is part of the URL in every form
  if (!parsed || !port || parsed.port) return [url];
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  const rest = pathStart === -1 ? '' : url.slice(pathStart);
  const bare = `${parsed.protocol}//${parsed.hostname}`;
  return [...new Set([url, `${bare}${rest}`, `${bare}:${port}${rest}`])];
}

/**
 * Whether `header` is Twilio's signature of `params` posted to `url` under `authToken`; the comparison is
 * timing-safe. A missing header never is.
 */
export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: FormParams,
  header: string | undefined,
): boolean {
  if (!header || !authToken) return false;
  const given = Buffer.from(header, 'utf8');
  let valid = false;
  for (const form of urlForms(url)) {
    const expected = Buffer.from(twilioSignature(authToken, form, params), 'utf8');
    if (expected.length === given.length && timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}
