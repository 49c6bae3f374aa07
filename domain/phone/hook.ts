import { createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { currentVersion } from '../agents/find';
import { PhoneCall } from '../../db/entities/PhoneCall';
import type { PhoneNumber } from '../../db/entities/PhoneNumber';
import { ApiError, errors } from '../errors';
import { DEFAULT_VOICE } from '../agents/voices';
import { callOf, ENDED, endCall } from './callRecord';
import type { PhoneDeps } from './deps';
import type { CallEngine } from './engine';
import { param, verifiedNumber, type Callback } from './hookAuth';
import type { FormParams } from './signature';
import { EMPTY_TWIML, twiml } from './twiml';

export interface HookDeps extends PhoneDeps {
  /** The conversation engine, over the request's EntityManager. */
  engine: (em: EntityManager) => CallEngine;
}

/** What the caller hears when the workspace can pay for no further turn, before the call is hung up. */
export const OUT_OF_CREDIT = 'Sorry, we cannot continue this call right now. Please call again later. Goodbye.';
/** What the caller hears after saying nothing the `<Gather>` could transcribe. */
export const DID_NOT_HEAR = 'Sorry, I did not catch that. Could you say it again?';

/** Billing refusals of a turn: the call ends politely instead of Twilio's "application error". */
const CANNOT_PAY = new Set(['billing.insufficient_credits', 'billing.spend_cap_exceeded']);

/**
 * The conversation of a call, opened on its first callback; the row lock makes it one per call. Answers
 * whether it was opened by this callback (the first of the call).
 */
async function conversationOf(
  em: EntityManager,
  deps: HookDeps,
  number: PhoneNumber,
  callId: string,
): Promise<{ conversationId: string; first: boolean }> {
  return em.fork().transactional(async (tx) => {
    const call = await tx.findOneOrFail(PhoneCall, callId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const first = !call.conversationId;
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
    return { conversationId: call.conversationId, first };
  });
}

/** A caller turn's id: Twilio's call and the callback's sequence number, else the words' hash. */
function messageIdOf(sid: string, form: FormParams, speech: string): string {
  const seq = param(form, 'SequenceNumber') ?? param(form, 'SpeechResultId');
  return `${sid}:${seq ?? `h${createHash('sha256').update(speech).digest('hex').slice(0, 24)}`}`;
}

/**
 * Handles one voice callback (docs/api/phone.md#callbacks) and answers its TwiML: a greeting and a
 * `<Gather>` on the first, the agent's reply to the transcribed speech on the next (one turn per message,
 * a repeated callback answered from the first), a prompt again after silence, a goodbye and `<Hangup/>`
 * when the workspace's credit has run out, and nothing once the call has ended.
 */
export async function handleCallback(em: EntityManager, deps: HookDeps, cb: Callback): Promise<string> {
  const number = await verifiedNumber(em, deps, cb);
  const sid = param(cb.form, 'CallSid');
  if (!sid || sid.length > 64) throw errors.validation([{ path: 'CallSid', message: 'Expected the call sid' }]);
  const call = await callOf(em, number, cb, sid);
  const ended = ENDED[param(cb.form, 'CallStatus') ?? ''];
  if (ended) {
    await endCall(em, deps.engine(em), number, call.id, ended, param(cb.form, 'CallDuration'));
    return EMPTY_TWIML;
  }
  const { conversationId, first } = await conversationOf(em, deps, number, call.id);
  const version = await currentVersion(em, number.agent);
  const voice = version.settings.voice ?? DEFAULT_VOICE;
  const speech = (param(cb.form, 'SpeechResult') ?? '').trim();
  if (!speech) {
    const greeting =
      call.direction === 'outbound'
        ? `Hello, this is ${number.agent.name}.`
        : `Hello, you have reached ${number.agent.name}. How can I help?`;
    return twiml({ say: first ? greeting : DID_NOT_HEAR, voice, gatherAction: cb.url });
  }
  try {
    const { reply } = await deps.engine(em).turn({
      workspaceId: number.workspace.id,
      conversationId,
      messageId: messageIdOf(sid, cb.form, speech),
      text: speech.slice(0, 10_000),
    });
    return twiml({ say: reply, voice, gatherAction: cb.url });
  } catch (err) {
    if (err instanceof ApiError && CANNOT_PAY.has(err.code)) return twiml({ say: OUT_OF_CREDIT, voice, hangup: true });
    throw err;
  }
}
