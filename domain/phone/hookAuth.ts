import type { EntityManager } from '@mikro-orm/postgresql';
import { PhoneCall } from '../../db/entities/PhoneCall';
import { PhoneNumber } from '../../db/entities/PhoneNumber';
import { secretSlot } from '../../db/secretColumns';
import { errors } from '../errors';
import { hashCallbackToken, tokenMatches } from './callbackToken';
import type { PhoneDeps } from './deps';
import { openCredentials } from './numbers';
import { verifyTwilioSignature, type FormParams } from './signature';

/** One callback from Twilio, as the route read it. */
export interface Callback {
  numberId: string;
  /** The token in the callback URL's path. */
  token: string;
  /** Our own call's id, on the callbacks of an outbound call. */
  callId?: string;
  /**
   * The URL Twilio called, rebuilt on `SVC_PUBLIC_URL` (never on the request's `Host`): what Twilio signed,
   * and where the next `<Gather>` posts.
   */
  url: string;
  signature?: string;
  form: FormParams;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where an outbound call's own callback token is sealed. */
export const callTokenSlot = (callId: string) => secretSlot('phone_calls', callId, 'callback_token');

/**
 * Whether `token` opens the callbacks: the number's current token, or the token an outbound call of the
 * number was placed with (`callId` names the call).
 */
async function tokenHolds(em: EntityManager, deps: PhoneDeps, number: PhoneNumber, cb: Callback): Promise<boolean> {
  if (tokenMatches(number.callbackTokenHash, cb.token)) return true;
  if (!cb.callId || !UUID.test(cb.callId)) return false;
  const call = await em.findOne(PhoneCall, { id: cb.callId, number });
  if (!call?.callbackToken) return false;
  try {
    return tokenMatches(hashCallbackToken(deps.box.open(call.callbackToken, callTokenSlot(call.id))), cb.token);
  } catch {
    return false;
  }
}

/**
 * The number a callback names, and only when both hold: the token in its path (else 404, as for a removed or
 * unknown number, so a rotated URL is gone at once) and Twilio's `X-Twilio-Signature` under the account's
 * Auth Token (else 403). Neither failure records anything.
 */
export async function verifiedNumber(em: EntityManager, deps: PhoneDeps, cb: Callback): Promise<PhoneNumber> {
  const number = UUID.test(cb.numberId)
    ? await em.findOne(PhoneNumber, { id: cb.numberId, deletedAt: null }, { populate: ['agent'] })
    : null;
  if (!number || !(await tokenHolds(em, deps, number, cb))) throw errors.notFound('Phone number');
  let authToken: string;
  try {
    authToken = openCredentials(deps, number).authToken;
  } catch {
    // sealed for another row or under a key no longer configured: nothing can be verified against it
    throw errors.forbidden('Bad or missing X-Twilio-Signature');
  }
  if (!verifyTwilioSignature(authToken, cb.url, cb.form, cb.signature)) {
    throw errors.forbidden('Bad or missing X-Twilio-Signature');
  }
  return number;
}

/** The first value of a callback parameter. */
export const param = (form: FormParams, name: string): string | undefined => form[name]?.[0];
