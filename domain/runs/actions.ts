import type { EntityManager } from '@mikro-orm/postgresql';
import { Feedback } from '../../db/entities/Feedback';
import { Run } from '../../db/entities/Run';
import { OutboxEntry, type OutboxCall } from '../../db/entities/OutboxEntry';
import {
  enqueue,
  OUTBOX_COLUMNS,
  outboxEntry,
  outboxValues,
  relayNow,
  withdraw,
  type RelayDeps,
} from '../shared/outbox/relay';
import {
  TERMINAL_STATUSES,
  type ApprovePayload,
  type InputPayload,
  type ReviewPayload,
  type RunStatus,
} from '../../workflows/messages';
import { ApiError } from '../errors';
import { findRun } from './find';
import { recordGateAnswerer } from './gateAnswerers';
import type { Identity } from '../identity/identity';
import { requestHash } from '../shared/idempotency/fingerprint';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { isObserved, observed } from '../shared/observations';
import { gateAuditChange } from './gateAudit';

const invalidState = (status: RunStatus) =>
  new ApiError('run.invalid_state', `The run is ${status}; this action does not apply`, { status });

/** The answers a person gives at a gate, by the gate's status (docs/api/runs.md). */
export type GateAnswer =
  | { gate: 'input'; payload: Omit<InputPayload, 'actionId'> }
  | { gate: 'approve'; payload: Omit<ApprovePayload, 'actionId'> }
  | { gate: 'review'; payload: Omit<ReviewPayload, 'actionId'> };

const GATE_STATUS = { input: 'needs_input', approve: 'needs_approval', review: 'needs_review' } as const;

/**
 * Answers the pending action of a run (docs/api/runs.md, gates); a gate under an approval policy is
 * answered by answerPolicyGate (approvalAnswers.ts) instead, person by person. The answer claims the action in the
 * read model with one conditional UPDATE, so of two answers to the same action exactly one is
 * accepted, and commits with the claim the signal that carries it, always with the claimed action id
 * (the workflow ignores an answer to any other action). A retried answer with the action id of an
 * accepted one gets the same result, whatever gate the run has reached since; any other answer that
 * finds no matching pending action is 409 `run.invalid_state`. Throws `unavailable` when Temporal does
 * not take the signal in time; the claim is then released so the caller can answer again. `answeredBy` is
 * kept as who answered (gateAnswerers.ts). Returns the run as its claim left it.
 */
export async function answerGate(
  deps: RelayDeps,
  em: EntityManager,
  workspaceId: string,
  runId: string,
  actionId: string | undefined,
  answer: GateAnswer,
  audit: AuditContext,
  answeredBy?: Identity,
): Promise<Run> {
  // The claim and its signal's outbox row in one statement: the row is written only when the claim is,
  // with the claimed action id in its call and in its key (as answerKey makes it). Its audit entry
  // commits with them.
  const entry = outboxEntry(signalCall(runId, '', answer), { held: true });
  const [rowId, createdAt, updatedAt, kind, call, subject, , leaseUntil, attempts] = outboxValues(entry);
  const claimed = await em.transactional(async (tx) => {
    const [row] = await tx.execute<Array<Record<string, unknown>>>(
      `with claimed as (
       update runs set answered_action_id = pending_action->>'id', updated_at = now()
        where id = ? and workspace_id = ? and status = ? and pending_action is not null
          and (?::text is null or pending_action->>'id' = ?)
          and answered_action_id is distinct from pending_action->>'id'
          and pending_action->'policy' is null
       returning *),
     signal as (
       insert into outbox (${OUTBOX_COLUMNS})
       select ?, ?, ?, ?, jsonb_set(?::jsonb, '{payload,actionId}', to_jsonb(claimed.answered_action_id)), ?,
              'answer:' || claimed.id || ':' || claimed.answered_action_id, ?, ? from claimed)
     select * from claimed`,
      [
        runId,
        workspaceId,
        GATE_STATUS[answer.gate],
        actionId ?? null,
        actionId ?? null,
        rowId,
        createdAt,
        updatedAt,
        kind,
        call,
        subject,
        leaseUntil,
        attempts,
      ],
    );
    if (row) await recordAudit(tx, audit, gateAuditChange(runId, row.answered_action_id as string, answer));
    return row;
  });
  if (!claimed) return retried(deps, em, workspaceId, runId, actionId, answer);
  const id = claimed.answered_action_id as string;
  entry.call = signalCall(runId, id, answer);
  entry.dedupeKey = answerKey(runId, id);
  if (answeredBy) await recordGateAnswerer(em, runId, id, answeredBy);
  try {
    await relayNow(deps, em, entry);
  } catch (err) {
    const undone = await em.transactional(async (tx) => {
      if (!(await withdraw(tx, entry.id))) return false;
      await tx.nativeUpdate(Run, { id: runId, answeredActionId: id }, { answeredActionId: null });
      return true;
    });
    if (undone) throw err;
    return em.fork().findOneOrFail(Run, runId);
  }
  await observeGateWait(em, runId, answer.gate);
  // The run as the claim left it: the workflow takes the signal after this answer either way.
  return em.map(Run, claimed);
}

/**
 * Reports how long the answered gate waited: since the run's last event of the gate's status, the one that
 * opened it (the workflow may have moved on by now). One indexed read, made only when an instrument listens;
 * its failure is not the answer's. Called once per gate, by the answer that decides it.
 */
export async function observeGateWait(em: EntityManager, runId: string, gate: GateAnswer['gate']): Promise<void> {
  if (!isObserved()) return;
  const rows = await em
    .getConnection()
    .execute<Array<{ waited: number }>>(
      `select extract(epoch from now() - created_at)::float8 as waited from run_events
        where run_id = ? and type = 'run.status' and data->>'status' = ? order by seq desc limit 1`,
      [runId, GATE_STATUS[gate]],
    )
    .catch(() => []);
  if (rows[0]) observed.gateAnswered(gate === 'approve' ? 'approval' : gate, Math.max(0, Number(rows[0].waited)));
}

const answerKey = (runId: string, actionId: string) => `answer:${runId}:${actionId}`;

/**
 * An answer that claimed nothing: when it repeats an accepted answer (same action id, same answer) it
 * gets the same result as before (its signal is made now if it is still pending); any other is 409.
 */
async function retried(
  deps: RelayDeps,
  em: EntityManager,
  workspaceId: string,
  runId: string,
  actionId: string | undefined,
  answer: GateAnswer,
): Promise<Run> {
  const run = await findRun(em, workspaceId, runId);
  const first = actionId ? await em.findOne(OutboxEntry, { dedupeKey: answerKey(runId, actionId) }) : null;
  if (!first || !sameAnswer(first.call, signalCall(runId, actionId!, answer))) throw invalidState(run.status);
  if (!first.doneAt) await relayNow(deps, em, first);
  return em.fork().findOneOrFail(Run, runId);
}

/** Compared as stored: JSON drops the keys left undefined. */
function sameAnswer(stored: OutboxCall, given: OutboxCall): boolean {
  return requestHash(stored) === requestHash(JSON.parse(JSON.stringify(given)));
}

function signalCall(runId: string, actionId: string, answer: GateAnswer): OutboxCall {
  switch (answer.gate) {
    case 'input':
      return { kind: 'signal_run', runId, signal: 'input', payload: { ...answer.payload, actionId } };
    case 'approve':
      return { kind: 'signal_run', runId, signal: 'approve', payload: { ...answer.payload, actionId } };
    case 'review':
      return { kind: 'signal_run', runId, signal: 'review', payload: { ...answer.payload, actionId } };
  }
}

/**
 * Cancels a run in any non-terminal status through the outbox; a finished run is 409. Throws
 * `unavailable` when Temporal does not take the cancel in time (nothing is left pending then).
 */
export async function cancelRun(deps: RelayDeps, em: EntityManager, workspaceId: string, runId: string): Promise<Run> {
  const run = await findRun(em, workspaceId, runId);
  if (TERMINAL_STATUSES.includes(run.status)) throw invalidState(run.status);
  const entry = await em.transactional(async (tx) => enqueue(tx, { kind: 'cancel_run', runId }, { held: true }));
  try {
    await relayNow(deps, em, entry);
  } catch (err) {
    if (await em.transactional((tx) => withdraw(tx, entry.id))) throw err;
  }
  return run;
}

export interface FeedbackInput {
  rating: number;
  correctedOutput?: unknown;
  comment?: string;
}

/** Records a rating of a run, optionally with a corrected output. */
export async function recordFeedback(
  em: EntityManager,
  workspaceId: string,
  runId: string,
  input: FeedbackInput,
): Promise<Feedback> {
  const run = await findRun(em, workspaceId, runId);
  const fb = new Feedback(run.id, run.workspaceId, input.rating, input.correctedOutput ?? null, input.comment ?? null);
  await em.persist(fb).flush();
  return fb;
}
