import { LockMode } from '@mikro-orm/core';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import type { Identity } from '../identity/identity';
import { gateAuditChange } from './gateAudit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GateAnswer } from '../../db/entities/GateAnswer';
import { OutboxEntry } from '../../db/entities/OutboxEntry';
import { Run } from '../../db/entities/Run';
import { approverKey, type IneligibleReason } from '../../workflows/approvalPolicy';
import type { ApprovePayload, PendingAction, PolicyProgress } from '../../workflows/messages';
import { ApiError } from '../errors';
import { enqueue, relayNow, withdraw, type RelayDeps } from '../shared/outbox/relay';
import { answerGate, observeGateWait } from './actions';
import { isEligible, personOf, starterOf, type Answerer } from './approvers';

/**
 * Answers at an approval gate under a policy (docs/api/runs.md#approval-policies). The run's row is locked
 * while the answer is judged, so answers to one gate take turns and each sees the ones committed before
 * it: two people approving at once are both counted, the same person twice is refused. An accepted answer
 * is one `gate_answers` row plus the outbox row of its own `approve` signal, committed together; the
 * workflow counts the signals. The gate's `actionId` rules are those of every gate: an answer naming
 * another action is 409 `run.invalid_state`, a retried identical answer naming the action gets 202 again.
 */

/** The gate under a policy a run waits at, or null when its pending action has no policy. */
export type PolicyGate = Extract<PendingAction, { type: 'approval' }> & PolicyProgress;

export function policyGateOf(pending: PendingAction | null): PolicyGate | null {
  return pending?.type === 'approval' && pending.policy ? (pending as PolicyGate) : null;
}

const ineligible = (reason: IneligibleReason, message: string) => new ApiError('forbidden', message, { reason });

const REFUSALS: Record<IneligibleReason, string> = {
  not_an_approver: 'You are not one of the approvers of this gate',
  self_approval: 'The person who started the run may not approve it',
  keys_not_allowed: 'An API key may not answer this gate',
  already_answered_by_you: 'You have already answered this gate',
};

/** The 403 `forbidden` of an answer the policy does not admit, with its `details.reason`. */
export const ineligibleAnswer = (reason: IneligibleReason) => ineligible(reason, REFUSALS[reason]);

/** An answer a person gives: approve or reject, with an optional comment. */
export interface PolicyAnswer {
  approved: boolean;
  comment?: string;
}

/**
 * Judges and records `answer` by `who` at the run's gate under a policy; null when the run's pending action
 * has no policy (the caller answers it as any gate). Throws 404 for an unknown run, 403 `forbidden` with
 * `details.reason` for an ineligible answer, 409 `run.invalid_state` when the gate is not open (or already
 * decided), `unavailable` when Temporal does not take the signal in time (nothing is kept then).
 */
export async function answerPolicyGate(
  deps: RelayDeps,
  em: EntityManager,
  who: Answerer,
  runId: string,
  actionId: string | undefined,
  answer: PolicyAnswer,
  audit: AuditContext,
): Promise<Run | null> {
  const judged = await em.transactional(async (tx) => {
    const run = await tx.findOne(
      Run,
      { id: runId, workspaceId: who.workspaceId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!run) throw new ApiError('not_found', 'Run not found');
    const person = await personOf(tx, who);
    const key = approverKey(person);
    const gate = policyGateOf(run.pendingAction);
    const given = actionId ?? gate?.id;
    const earlier = given ? await tx.findOne(GateAnswer, { runId, actionId: given, approver: key }) : null;
    if (earlier) {
      // The same answer again, naming its action: the same result, whatever the run has reached since.
      if (actionId && earlier.approved === answer.approved && (earlier.comment ?? undefined) === answer.comment) {
        return { run, entry: await tx.findOne(OutboxEntry, { dedupeKey: answerKey(runId, actionId, key) }) };
      }
      throw ineligible('already_answered_by_you', REFUSALS.already_answered_by_you);
    }
    if (run.status !== 'needs_approval' || !run.pendingAction || (actionId && actionId !== run.pendingAction.id)) {
      throw invalidState(run.status);
    }
    if (!gate) return null;
    const reason = await refusal(tx, run, gate, who, person);
    if (reason) throw ineligible(reason, REFUSALS[reason]);
    const decided = await tx.find(GateAnswer, { runId, actionId: gate.id });
    if (decided.some((a) => !a.approved) || decided.length >= gate.policy.required) throw invalidState(run.status);

    const row = new GateAnswer(
      runId,
      gate.id,
      key,
      person.userId,
      person.keyId,
      answer.approved,
      answer.comment ?? null,
    );
    tx.persist(row);
    await recordAudit(tx, audit, gateAuditChange(runId, gate.id, { gate: 'approve', payload: answer }));
    const payload: ApprovePayload = {
      actionId: gate.id,
      approved: answer.approved,
      comment: answer.comment,
      by: { userId: person.userId, keyId: person.keyId },
      at: row.createdAt.toISOString(),
    };
    const entry = enqueue(
      tx,
      { kind: 'signal_run', runId, signal: 'approve', payload },
      { held: true, dedupeKey: answerKey(runId, gate.id, key) },
    );
    // the answer that decides the gate: a rejection, or the last approval it needs
    const decides = !answer.approved || decided.length + 1 >= gate.policy.required;
    return { run, entry, row, decides };
  });
  if (!judged) return null;
  const { run, entry } = judged;
  if (!entry || entry.doneAt) return run;
  try {
    await relayNow(deps, em, entry);
  } catch (err) {
    if ('row' in judged && judged.row) {
      const row = judged.row;
      const undone = await em.transactional(async (tx) => {
        if (!(await withdraw(tx, entry.id))) return false;
        await tx.nativeDelete(GateAnswer, { id: row.id });
        return true;
      });
      if (undone) throw err;
    }
  }
  if ('decides' in judged && judged.decides) await observeGateWait(em, runId, 'approve');
  return run;
}

const answerKey = (runId: string, actionId: string, approver: string) => `answer:${runId}:${actionId}:${approver}`;

const invalidState = (status: Run['status']) =>
  new ApiError('run.invalid_state', `The run is ${status}; this action does not apply`, { status });

/** Why `who` may not answer `gate`, or null when they may (the reasons in the order they are checked). */
async function refusal(
  em: EntityManager,
  run: Run,
  gate: PolicyGate,
  who: Answerer,
  person: { userId: string | null; keyId: string | null },
): Promise<IneligibleReason | null> {
  const { policy } = gate;
  if (who.actor === 'api_key' && !policy.allowKeys) return 'keys_not_allowed';
  if (policy.forbidSelfApproval) {
    const starter = await starterOf(em, run);
    const same =
      (starter.userId !== null && starter.userId === person.userId) ||
      (starter.keyId !== null && starter.keyId === person.keyId);
    if (same) return 'self_approval';
  }
  if (!(await isEligible(em, run.workspaceId, gate, person))) return 'not_an_approver';
  return null;
}

/**
 * `POST /v1/runs/{id}/approve`: under a policy, the person's answer is judged and counted
 * ({@link answerPolicyGate}); without one, the first answer decides, as at every gate.
 */
export async function answerApproval(
  deps: RelayDeps,
  em: EntityManager,
  who: Answerer,
  runId: string,
  actionId: string | undefined,
  answer: PolicyAnswer,
  audit: AuditContext,
  answeredBy?: Identity,
): Promise<Run> {
  const counted = await answerPolicyGate(deps, em, who, runId, actionId, answer, audit);
  if (counted) return counted;
  const given = { gate: 'approve', payload: answer } as const;
  return answerGate(deps, em, who.workspaceId, runId, actionId, given, audit, answeredBy);
}
