import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Flow } from '../../db/entities/Flow';
import { FlowRun } from '../../db/entities/FlowRun';
import type { OutboxEntry } from '../../db/entities/OutboxEntry';
import {
  FLOW_RUN_TERMINAL,
  type ApprovalPayload,
  type FlowRunStatus,
  type FlowRunTrigger,
} from '../../workflows/flowMessages';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { ApiError, errors } from '../errors';
import type { Identity } from '../identity/identity';
import { enqueue, relayNow, release, type RelayDeps } from '../shared/outbox/relay';
import { findPage } from '../shared/pagination';
import { flowPolicyGateOf, judgeFlowPolicyAnswer } from './approvalAnswers';
import { findFlow, findFlowRun } from './find';
import type { FlowDeps } from './flows';
import { presentFlowRun, type FlowRunView } from './presenters';
import type { Answerer } from '../runs/approvers';
import { onBehalfOfCaller, principalColumns, type OnBehalfOf } from '../runs/runGate';

/** Makes the call of a committed row now; when Temporal does not answer, the outbox sweep makes it. */
async function relayOrLeave(deps: RelayDeps, em: EntityManager, entry: OutboxEntry): Promise<void> {
  await relayNow(deps, em, entry).catch((err) => release(em, [entry.id], err));
}

/**
 * Makes a flow run `queued` and starts its workflow `flow-<id>` through the outbox: the row and the
 * start commit together, the request makes the start at once, and the sweep makes it should the
 * request die or Temporal not answer (docs/architecture.md). A paused flow is 409 `conflict`. Its agent
 * steps are made on behalf of `who` (a manual run's caller), else of whoever saved the flow last
 * (docs/api/billing.md#who-pays).
 */
export async function startFlowRun(
  deps: FlowDeps,
  em: EntityManager,
  flow: Flow,
  trigger: FlowRunTrigger,
  who?: OnBehalfOf,
): Promise<FlowRun> {
  if (flow.status === 'paused') throw errors.conflict('The flow is paused');
  const run = new FlowRun(flow.workspaceId, flow.id, trigger, flow.steps);
  Object.assign(run, who ? principalColumns(who) : { apiKeyId: flow.apiKeyId, userId: flow.userId });
  let start!: OutboxEntry;
  await em.transactional(async (tx) => {
    tx.persist(run);
    await tx.flush();
    start = enqueue(
      tx,
      {
        kind: 'start_flow',
        flowRunId: run.id,
        workspaceId: run.workspaceId,
        taskQueue: deps.config.temporal.taskQueue,
      },
      { held: true },
    );
  });
  await relayOrLeave(deps, em, start);
  return run;
}

/** `POST /v1/flows/{id}/run`: a manual run with `input` as its trigger data. */
export async function runFlowManually(
  deps: FlowDeps,
  em: EntityManager,
  identity: Identity,
  flowId: string,
  input: Record<string, unknown>,
): Promise<FlowRunView> {
  const flow = await findFlow(em, identity.workspaceId, flowId);
  return presentFlowRun(await startFlowRun(deps, em, flow, { type: 'manual', input }, onBehalfOfCaller(identity)));
}

export async function listFlowRuns(
  em: EntityManager,
  identity: Identity,
  flowId: string,
  page: { limit: number; cursor?: string },
): Promise<{ flowRuns: FlowRunView[]; nextCursor: string | null }> {
  const flow = await findFlow(em, identity.workspaceId, flowId);
  const { items, nextCursor } = await findPage(em, FlowRun, { flowId: flow.id }, page);
  return { flowRuns: items.map(presentFlowRun), nextCursor };
}

/**
 * `GET /v1/flow-runs?status=`: the workspace's flow runs across its flows, newest first, optionally of one
 * status (the console's inbox asks for those `waiting_approval`).
 */
export async function listWorkspaceFlowRuns(
  em: EntityManager,
  identity: Identity,
  query: { status?: FlowRunStatus; limit: number; cursor?: string },
): Promise<{ flowRuns: FlowRunView[]; nextCursor: string | null }> {
  const where = { workspaceId: identity.workspaceId, ...(query.status ? { status: query.status } : {}) };
  const { items, nextCursor } = await findPage(em, FlowRun, where, query);
  return { flowRuns: items.map(presentFlowRun), nextCursor };
}

export async function getFlowRun(em: EntityManager, identity: Identity, id: string): Promise<FlowRunView> {
  return presentFlowRun(await findFlowRun(em, identity.workspaceId, id));
}

function invalidState(run: FlowRun): ApiError {
  return new ApiError('run.invalid_state', `The flow run is ${run.status}`, { status: run.status });
}

/**
 * Answers the approval a flow run waits for (`POST /v1/flow-runs/{id}/approval`, and a one-click link's
 * confirmation, which names the approval `actionId` it was sent for: another one is 409 `run.invalid_state`).
 * Without a policy the answer is claimed on the row (a second answer is 409 `run.invalid_state`); under one,
 * the person's answer is judged and claimed (approvalAnswers.ts), and the workflow counts it. The signal,
 * naming the approval it answers, commits with the claim in the outbox, and so does the answer's audit entry
 * (`flow_run.approved` or `flow_run.rejected`). A rejection fails the flow run with `flow.rejected`.
 */
export async function answerFlowApproval(
  deps: RelayDeps,
  em: EntityManager,
  who: Answerer,
  id: string,
  answer: { approved: boolean; comment?: string },
  audit: AuditContext,
  actionId?: string,
): Promise<FlowRunView> {
  await findFlowRun(em, who.workspaceId, id);
  let entry!: OutboxEntry;
  const run = await em.transactional(async (tx) => {
    const row = await tx.findOneOrFail(FlowRun, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const pending = row.pendingApproval;
    if (row.status !== 'waiting_approval' || !pending || (actionId && actionId !== pending.id)) {
      throw invalidState(row);
    }
    const gate = flowPolicyGateOf(pending);
    let payload: ApprovalPayload;
    if (gate) {
      payload = await judgeFlowPolicyAnswer(tx, row, gate, who, answer, () => invalidState(row));
    } else {
      if (row.answeredActionId === pending.id) throw invalidState(row);
      row.answeredActionId = pending.id;
      payload = { actionId: pending.id, ...answer };
    }
    await recordAudit(tx, audit, {
      action: answer.approved ? 'flow_run.approved' : 'flow_run.rejected',
      resourceType: 'flow_run',
      resourceId: row.id,
      details: { actionId: pending.id, step: pending.step, withComment: Boolean(answer.comment) },
    });
    entry = enqueue(tx, { kind: 'signal_flow', flowRunId: row.id, payload }, { held: true });
    return row;
  });
  await relayOrLeave(deps, em, entry);
  return presentFlowRun(run);
}

/**
 * Cancels a flow run that has not finished (409 `run.invalid_state` otherwise): Temporal's cancel of
 * `flow-<id>` through the outbox, which cancels its agent run too. A run still queued is cancelled on
 * the row at once, so a workflow that starts later ends without running a step.
 */
export async function cancelFlowRun(
  deps: FlowDeps,
  em: EntityManager,
  identity: Identity,
  id: string,
): Promise<FlowRunView> {
  await findFlowRun(em, identity.workspaceId, id);
  let entry!: OutboxEntry;
  const run = await em.transactional(async (tx) => {
    const row = await tx.findOneOrFail(FlowRun, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (FLOW_RUN_TERMINAL.includes(row.status)) throw invalidState(row);
    if (row.status === 'queued') {
      row.status = 'cancelled';
      row.completedAt = new Date();
      row.steps = row.steps.map((s) => ({ ...s, status: 'skipped' }));
    }
    entry = enqueue(tx, { kind: 'cancel_flow', flowRunId: row.id }, { held: true });
    return row;
  });
  await relayOrLeave(deps, em, entry);
  return presentFlowRun(run);
}
