import type { EntityManager } from '@mikro-orm/postgresql';
import { PhoneCall } from '../../db/entities/PhoneCall';
import type { PhoneDeps } from './deps';
import { callTokenSlot } from './hookAuth';
import { openCredentials } from './numbers';
import { placeCall, type PlaceOutcome } from './provider';

/**
 * One attempt to place an outbound call (the activity of `phone-call-<id>`). A call that is no longer
 * `ringing` without a provider sid (placed by an earlier attempt, or failed) needs nothing: `placed`.
 */
export async function attemptPlacement(em: EntityManager, deps: PhoneDeps, callId: string): Promise<PlaceOutcome> {
  const call = await em.findOne(PhoneCall, callId, { populate: ['number'] });
  if (!call) return { outcome: 'refused', error: 'call not found' };
  if (call.providerCallSid || call.status !== 'ringing') return { outcome: 'placed', sid: call.providerCallSid ?? '' };
  if (call.number.deletedAt) return { outcome: 'refused', error: 'the number was removed' };
  let credentials;
  let callToken: string;
  try {
    credentials = openCredentials(deps, call.number);
    callToken = deps.box.open(call.callbackToken, callTokenSlot(call.id));
  } catch {
    return { outcome: 'refused', error: 'the stored secret cannot be decrypted' };
  }
  const result = await placeCall(deps, call, credentials, callToken);
  if (result.outcome === 'placed') {
    // a callback may have recorded the sid first
    await em.nativeUpdate(PhoneCall, { id: call.id, providerCallSid: null }, { providerCallSid: result.sid });
  }
  return result;
}

/** Marks an outbound call `failed` after its last attempt. */
export async function failPlacement(em: EntityManager, callId: string, reason: string): Promise<void> {
  await em.nativeUpdate(
    PhoneCall,
    { id: callId, status: 'ringing' },
    { status: 'failed', error: reason.slice(0, 2000), endedAt: new Date(), updatedAt: new Date() },
  );
}
