import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PhoneCall } from '../../db/entities/PhoneCall';
import { Workspace } from '../../db/entities/Workspace';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';
import { phoneCallWorkflow, phoneCallWorkflowId } from '../../workflows/phoneCall';
import { SvcAgentId, SvcWorkspaceId } from '../../workflows/searchAttributes';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import { findCall, findNumber } from './find';
import { presentCall, type CallView, type TranscriptEntry } from './presenters';
import { PhoneNumber } from '../../db/entities/PhoneNumber';
import type { SecretBox } from '../../platform/secrets';
import { newCallbackToken } from './callbackToken';
import { callTokenSlot } from './hookAuth';

/**
 * What placing an outbound call needs: Temporal, to start `phone-call-<id>` on the runs task queue, and the
 * box the call's own callback token is sealed in.
 */
export interface OutboundDeps {
  temporal: Temporal;
  config: Pick<Config, 'temporal'>;
  box: SecretBox;
}

/**
 * The transcripts and costs of calls, from their conversations: each turn's messages in order, and the
 * summed cost of the runs that answered them (docs/api/phone.md#calls).
 */
async function conversationsOf(
  em: EntityManager,
  calls: PhoneCall[],
): Promise<Map<string, { transcript: TranscriptEntry[]; costMicros: number }>> {
  const ids = calls.map((c) => c.conversationId).filter((id): id is string => Boolean(id));
  const out = new Map<string, { transcript: TranscriptEntry[]; costMicros: number }>();
  if (ids.length === 0) return out;
  for (const id of ids) out.set(id, { transcript: [], costMicros: 0 });
  const conn = em.getConnection();
  const messages: Array<{ conversation_id: string; role: 'user' | 'assistant'; text: string; created_at: Date }> =
    await conn.execute(
      `select conversation_id, role, text, created_at from conversation_messages
        where conversation_id in (?) order by conversation_id, seq`,
      [ids],
    );
  for (const m of messages) {
    out
      .get(m.conversation_id)!
      .transcript.push({ role: m.role, text: m.text, at: new Date(m.created_at).toISOString() });
  }
  const costs: Array<{ conversation_id: string; cost: string | number }> = await conn.execute(
    `select m.conversation_id, sum(r.cost_micros) as cost from runs r
       join (select distinct conversation_id, run_id from conversation_messages
              where conversation_id in (?) and run_id is not null) m on m.run_id = r.id
      group by m.conversation_id`,
    [ids],
  );
  for (const c of costs) out.get(c.conversation_id)!.costMicros = Number(c.cost);
  return out;
}

async function present(em: EntityManager, calls: PhoneCall[]): Promise<CallView[]> {
  const convs = await conversationsOf(em, calls);
  return calls.map((c) => {
    const conv = c.conversationId ? convs.get(c.conversationId) : undefined;
    return presentCall(c, conv?.transcript ?? [], conv?.costMicros ?? 0);
  });
}

/**
 * One page of the workspace's calls, newest first; `numberId` keeps one number's (a removed number's
 * calls included). Throws `not_found` for a number of no call of the workspace.
 */
export async function listCalls(
  em: EntityManager,
  identity: Identity,
  query: { limit: number; cursor?: string; numberId?: string },
): Promise<{ calls: CallView[]; nextCursor: string | null }> {
  if (query.numberId) {
    const number = await em.findOne(PhoneNumber, { id: query.numberId, workspace: identity.workspaceId });
    if (!number) throw errors.notFound('Phone number');
  }
  const where = { workspace: identity.workspaceId, ...(query.numberId ? { number: query.numberId } : {}) };
  const { items, nextCursor } = await findPage(em, PhoneCall, where, query);
  return { calls: await present(em, items), nextCursor };
}

export async function getCall(em: EntityManager, identity: Identity, id: string): Promise<CallView> {
  return (await present(em, [await findCall(em, identity.workspaceId, id)]))[0];
}

/**
 * Places an outbound call from a number of the workspace: the call is `ringing` at once, and the workflow
 * `phone-call-<id>` asks Twilio to dial, with retries (docs/api/phone.md#outbound-calls). The call gets a
 * callback token of its own (sealed), since the number's is kept only as a hash and cannot be handed out. When
 * Temporal does not answer in time the call is withdrawn and the request is 503 `unavailable`.
 * Throws `not_found` for an unknown number.
 */
export async function placeOutboundCall(
  em: EntityManager,
  deps: OutboundDeps,
  identity: Identity,
  input: { numberId: string; to: string; purpose?: string | null },
): Promise<CallView> {
  const number = await findNumber(em, identity.workspaceId, input.numberId);
  const call = new PhoneCall(
    em.getReference(Workspace, identity.workspaceId),
    number,
    'outbound',
    number.e164,
    input.to,
    'ringing',
  );
  call.purpose = input.purpose ?? null;
  call.callbackToken = deps.box.seal(newCallbackToken(), callTokenSlot(call.id));
  await em.persist(call).flush();
  try {
    await deps.temporal.call(() =>
      deps.temporal.client.workflow.start(phoneCallWorkflow, {
        workflowId: phoneCallWorkflowId(call.id),
        taskQueue: deps.config.temporal.taskQueue,
        args: [{ callId: call.id }],
        typedSearchAttributes: [
          { key: SvcWorkspaceId, value: identity.workspaceId },
          { key: SvcAgentId, value: number.agent.id },
        ],
      }),
    );
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) {
      await em.nativeDelete(PhoneCall, { id: call.id });
      throw errors.unavailable('Temporal');
    }
  }
  return (await present(em, [call]))[0];
}

/**
 * The call a run answered a turn of, when the run is a turn of a phone call's conversation (a booking made
 * during a call names the call).
 */
export async function callOfRun(em: EntityManager, runId: string): Promise<string | null> {
  const rows: Array<{ id: string }> = await em.getConnection().execute(
    `select c.id from phone_calls c join runs r on r.metadata->>'conversationId' = c.conversation_id::text
      where r.id = ? limit 1`,
    [runId],
  );
  return rows[0]?.id ?? null;
}
