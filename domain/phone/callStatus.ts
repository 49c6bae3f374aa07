import type { EntityManager } from '@mikro-orm/postgresql';
import { errors } from '../errors';
import { callOf, ENDED, endCall, markAnswered } from './callRecord';
import type { HookDeps } from './hook';
import { param, verifiedNumber, type Callback } from './hookAuth';
import { EMPTY_TWIML } from './twiml';

/**
 * Handles one of Twilio's status callbacks (`StatusCallbackEvent` initiated, ringing, answered, completed;
 * docs/api/phone.md#call-status): `in-progress` marks the call answered, a final status (`completed`,
 * `busy`, `failed`, `no-answer`, `canceled`) completes the record with `CallDuration` and ends its
 * conversation. Answers an empty TwiML document (Twilio reads nothing from it).
 */
export async function handleStatus(em: EntityManager, deps: HookDeps, cb: Callback): Promise<string> {
  const number = await verifiedNumber(em, deps, cb);
  const sid = param(cb.form, 'CallSid');
  if (!sid || sid.length > 64) throw errors.validation([{ path: 'CallSid', message: 'Expected the call sid' }]);
  const call = await callOf(em, number, cb, sid);
  const status = param(cb.form, 'CallStatus') ?? '';
  const ended = ENDED[status];
  if (ended) await endCall(em, deps.engine(em), number, call.id, ended, param(cb.form, 'CallDuration'));
  else if (status === 'in-progress') await markAnswered(em, call.id);
  return EMPTY_TWIML;
}
