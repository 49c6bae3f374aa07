import { createHash } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { currentVersion } from '../agents/find';
import { PhoneCall } from '../../db/entities/PhoneCall';
import { PhoneNumber } from '../../db/entities/PhoneNumber';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../errors';
import { DEFAULT_VOICE } from '../agents/voices';
import type { PhoneDeps } from './deps';
import type { CallEngine } from './engine';
import { webhookSecretSlot } from './numbers';
import { verifyTwilioSignature } from './signature';
import { EMPTY_TWIML, twiml } from './twiml';

export interface HookDeps extends PhoneDeps {
  /** The conversation engine, over the request's EntityManager. */
  engine: (em: EntityManager) => CallEngine;
}

export interface Callback {
  numberId: string;
  /** Our own call's id, on the callbacks of an outbound call. */
  callId?: string;
  /** The URLs the provider may have signed: the public one and the one the request reached. */
  urls: string[];
  /** The URL the next `<Gather>` posts to. */
  actionUrl: string;
  signature?: string;
  params: Record<string, string>;
}

/** Provider statuses that end a call, and what the call becomes. */
const ENDED: Record<string, 'completed' | 'failed'> = {
  completed: 'completed',
  busy: 'failed',
  failed: 'failed',
  'no-answer': 'failed',
  canceled: 'failed',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The number a callback names, and only when the callback is signed with its current secret: a removed or
 * unknown number is 404, a missing or wrong signature 403, and neither records anything.
 */
async function verifiedNumber(em: EntityManager, deps: PhoneDeps, cb: Callback): Promise<PhoneNumber> {
  const number = UUID.test(cb.numberId)
    ? await em.findOne(PhoneNumber, { id: cb.numberId, deletedAt: null }, { populate: ['agent'] })
    : null;
  if (!number) throw errors.notFound('Phone number');
  let secret: string;
  try {
    secret = deps.box.open(number.webhookSecret, webhookSecretSlot(number));
  } catch {
    // sealed for another row or under a key no longer configured: nothing can be verified against it
    throw errors.forbidden('Bad or missing X-Twilio-Signature');
  }
  if (!verifyTwilioSignature(secret, cb.urls, cb.params, cb.signature)) {
    throw errors.forbidden('Bad or missing X-Twilio-Signature');
  }
  return number;
}

/** The call a callback belongs to: ours (outbound, by `callId`) or the provider's (inbound, by CallSid). */
async function callOf(em: EntityManager, number: PhoneNumber, cb: Callback, sid: string): Promise<PhoneCall> {
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
    (cb.params.From ?? '').slice(0, 64),
    (cb.params.To ?? number.e164).slice(0, 64),
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

/** The conversation of a call, opened on its first callback; the row lock makes it one per call. */
async function conversationOf(em: EntityManager, deps: HookDeps, number: PhoneNumber, callId: string): Promise<string> {
  return em.fork().transactional(async (tx) => {
    const call = await tx.findOneOrFail(PhoneCall, callId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!call.conversationId) {
      call.conversationId = await deps.engine(em).open({
        workspaceId: number.workspace.id,
        agentId: number.agent.id,
        callId: call.id,
        context: {
          channel: 'phone',
          direction: call.direction,
          from: call.fromNumber,
          to: call.toNumber,
          purpose: call.purpose,
        },
      });
    }
    if (call.status === 'ringing') call.status = 'in_progress';
    call.startedAt ??= new Date();
    return call.conversationId;
  });
}

/** A caller turn's id: the provider's call and the callback's sequence number, else the words' hash. */
function messageIdOf(sid: string, params: Record<string, string>, speech: string): string {
  const seq = params.SequenceNumber ?? params.SpeechResultId;
  return `${sid}:${seq ?? `h${createHash('sha256').update(speech).digest('hex').slice(0, 24)}`}`;
}

/**
 * Handles one provider callback (docs/api/phone.md#callbacks) and answers its XML: a greeting and a
 * `<Gather>` on the first, the agent's reply to the transcribed speech on the next (one turn per message,
 * a repeated callback answered from the first), and nothing once the call has ended (hang-up ends the
 * conversation and records the duration).
 */
export async function handleCallback(em: EntityManager, deps: HookDeps, cb: Callback): Promise<string> {
  const number = await verifiedNumber(em, deps, cb);
  const sid = cb.params.CallSid;
  if (!sid || sid.length > 64)
    throw errors.validation([{ path: 'CallSid', message: 'Expected the provider call sid' }]);
  const call = await callOf(em, number, cb, sid);
  const ended = ENDED[cb.params.CallStatus ?? ''];
  if (ended) {
    const duration = Number(cb.params.CallDuration);
    const fresh = await em.fork().findOneOrFail(PhoneCall, call.id);
    if (fresh.status === 'completed' || fresh.status === 'failed') return EMPTY_TWIML;
    fresh.status = ended;
    fresh.endedAt = new Date();
    fresh.durationSec =
      Number.isInteger(duration) && duration >= 0
        ? duration
        : fresh.startedAt
          ? Math.round((fresh.endedAt.getTime() - fresh.startedAt.getTime()) / 1000)
          : 0;
    await em
      .fork()
      .nativeUpdate(
        PhoneCall,
        { id: call.id },
        { status: fresh.status, endedAt: fresh.endedAt, durationSec: fresh.durationSec, updatedAt: new Date() },
      );
    if (fresh.conversationId) {
      await deps.engine(em).end({
        workspaceId: number.workspace.id,
        conversationId: fresh.conversationId,
        reason: 'hang_up',
      });
    }
    return EMPTY_TWIML;
  }
  const conversationId = await conversationOf(em, deps, number, call.id);
  const version = await currentVersion(em, number.agent);
  const voice = version.settings.voice ?? DEFAULT_VOICE;
  const speech = (cb.params.SpeechResult ?? '').trim();
  if (!speech) {
    const greeting =
      call.direction === 'outbound'
        ? `Hello, this is ${number.agent.name}.`
        : `Hello, you have reached ${number.agent.name}. How can I help?`;
    return twiml({ say: greeting, voice, gatherAction: cb.actionUrl });
  }
  const { reply } = await deps.engine(em).turn({
    workspaceId: number.workspace.id,
    conversationId,
    messageId: messageIdOf(sid, cb.params, speech),
    text: speech.slice(0, 10_000),
  });
  return twiml({ say: reply, voice, gatherAction: cb.actionUrl });
}
