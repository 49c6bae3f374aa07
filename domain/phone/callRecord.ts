import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PhoneCall } from '../../db/entities/PhoneCall';
import { PhoneNumber } from '../../db/entities/PhoneNumber';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../errors';
import type { CallEngine } from './engine';
import { param, UUID, type Callback } from './hookAuth';

/** Twilio's `CallStatus` values that end a call, and what the call becomes. */
export const ENDED: Record<string, 'completed' | 'failed'> = {
  completed: 'completed',
  busy: 'failed',
  failed: 'failed',
  'no-answer': 'failed',
  canceled: 'failed',
};

/**
 * The call a callback belongs to: ours (outbound, by `callId`, learning Twilio's CallSid) or Twilio's
 * (inbound, by CallSid, recorded on its first callback). Throws `not_found` for a `callId` of no call of
 * the number.
 */
export async function callOf(em: EntityManager, number: PhoneNumber, cb: Callback, sid: string): Promise<PhoneCall> {
  if (cb.callId) {
    const call = UUID.test(cb.callId) ? await em.findOne(PhoneCall, { id: cb.callId, number }) : null;
    if (!call) throw errors.notFound('Call');
    if (!call.providerCallSid) {
      await em.nativeUpdate(PhoneCall, { id: call.id, providerCallSid: null }, { providerCallSid: sid });
    }
    return call;
  }
  const found = await em.findOne(PhoneCall, { number, providerCallSid: sid });
  if (found) return found;
  const fork = em.fork();
  const call = new PhoneCall(
    fork.getReference(Workspace, number.workspace.id),
    fork.getReference(PhoneNumber, number.id),
    'inbound',
    (param(cb.form, 'From') ?? '').slice(0, 64),
    (param(cb.form, 'To') ?? number.e164).slice(0, 64),
    'ringing',
  );
  call.providerCallSid = sid;
  try {
    await fork.persist(call).flush();
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    // another callback of the same call made it first
  }
  return em.findOneOrFail(PhoneCall, { number, providerCallSid: sid });
}

/**
 * Completes a call record from Twilio's final status (`CallDuration` in seconds, else the time since it
 * was answered) and ends its conversation; a call already ended keeps its first ending.
 */
export async function endCall(
  em: EntityManager,
  engine: CallEngine,
  number: PhoneNumber,
  callId: string,
  ended: 'completed' | 'failed',
  durationParam: string | undefined,
): Promise<void> {
  const fresh = await em.fork().findOneOrFail(PhoneCall, callId);
  if (fresh.status === 'completed' || fresh.status === 'failed') return;
  const endedAt = new Date();
  const duration = Number(durationParam);
  const durationSec =
    durationParam !== undefined && Number.isInteger(duration) && duration >= 0
      ? duration
      : fresh.startedAt
        ? Math.round((endedAt.getTime() - fresh.startedAt.getTime()) / 1000)
        : 0;
  const changed = await em
    .fork()
    .nativeUpdate(
      PhoneCall,
      { id: callId, status: { $nin: ['completed', 'failed'] } },
      { status: ended, endedAt, durationSec, updatedAt: endedAt },
    );
  if (changed && fresh.conversationId) {
    await engine.end({ workspaceId: number.workspace.id, conversationId: fresh.conversationId, reason: 'hang_up' });
  }
}

/** Marks a call answered (Twilio's `in-progress`): `in_progress`, from now. */
export async function markAnswered(em: EntityManager, callId: string): Promise<void> {
  await em
    .fork()
    .nativeUpdate(PhoneCall, { id: callId, status: 'ringing' }, { status: 'in_progress', startedAt: new Date() });
}
