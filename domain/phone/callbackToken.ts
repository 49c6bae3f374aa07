import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../platform/config';

/**
 * A number's callback URL token (docs/api/phone.md#callbacks): the secret part of the URL pasted into
 * Twilio. Only its SHA-256 is stored, so the URL is shown once (on create and on each rotation).
 */
export const newCallbackToken = () => randomBytes(32).toString('base64url');

/** The stored form of a token: hex SHA-256. */
export const hashCallbackToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether `token` is the one `hash` was made of; timing-safe. */
export function tokenMatches(hash: string, token: string): boolean {
  const expected = Buffer.from(hash, 'hex');
  const given = createHash('sha256').update(token, 'utf8').digest();
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Where Twilio posts a number's voice callbacks, on the service's public address. */
export function callbackUrl(config: Pick<Config, 'publicUrl'>, numberId: string, token: string): string {
  return `${config.publicUrl.replace(/(?<!\/)\/+$/, '')}/hooks/phone/${numberId}/${token}`;
}

/** Where Twilio posts a call's status changes: the callback URL's `/status`. */
export const statusCallbackUrl = (voiceUrl: string) => {
  const q = voiceUrl.indexOf('?');
  return q === -1 ? `${voiceUrl}/status` : `${voiceUrl.slice(0, q)}/status${voiceUrl.slice(q)}`;
};
