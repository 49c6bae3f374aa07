import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { FlowRun } from '../../db/entities/FlowRun';
import {
  FLOW_RUN_TERMINAL,
  FlowFailure,
  type ApprovalRecord,
  type ConditionOutcome,
  type FlowError,
  type FlowPlan,
  type FlowRunStatus,
  type FlowRunStepState,
  type FlowStep,
} from '../../workflows/flowMessages';
import type { PolicyProgress } from '../../workflows/messages';
import { FlowStepError } from './stepError';
import { pathExists, render, renderText, resolvePath, TemplateError, type TemplateScope } from './templates';

/**
 * The read-model side of a flow run's workflow (docs/api/flows.md#how-a-flow-runs): each function is
 * one activity, owns its transaction, and locks the flow run's row, since API requests (approval,
 * cancel) change the same row.
 */

/** Changes a flow run under its row lock; null when the row is gone (its flow was deleted). */
export async function updateFlowRun<T>(
  em: EntityManager,
  id: string,
  fn: (run: FlowRun) => T | Promise<T>,
): Promise<T | null> {
  return em.fork().transactional(async (tx) => {
    const run = await tx.findOne(FlowRun, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!run) return null;
    const result = await fn(run);
    run.updatedAt = new Date();
    return result;
  });
}

/** Replaces one step's state (a new array, so the change of the JSON column is seen). */
export function patchStep(run: FlowRun, index: number, patch: Partial<FlowRunStepState>): FlowRunStepState {
  const steps = run.steps.map((s, i) => (i === index ? { ...s, ...patch } : s));
  run.steps = steps;
  return steps[index];
}

/** What templates of this run may read: the trigger's input and the outputs of the steps that succeeded. */
export function scopeOf(run: FlowRun): TemplateScope {
  const steps: TemplateScope['steps'] = {};
  for (const s of run.steps) {
    if (s.status === 'succeeded')
      Object.defineProperty(steps, s.name, { value: { output: s.output }, enumerable: true });
  }
  return { trigger: run.trigger.input, steps };
}

/** Renders with the run's scope; a bad reference is the step's `flow.template_error`. */
export function renderStep<T>(run: FlowRun, fn: (scope: TemplateScope) => T): T {
  try {
    return fn(scopeOf(run));
  } catch (err) {
    if (err instanceof TemplateError) throw new FlowStepError(FlowFailure.templateError, err.message);
    throw err;
  }
}

/**
 * The workflow's first step: `queued` → `running` and the plan of steps (names, types, delays). A flow
 * run that ended before its workflow started (cancelled while queued, or deleted) ends the workflow.
 */
export async function beginFlowRun(em: EntityManager, id: string): Promise<FlowPlan> {
  const plan = await updateFlowRun<FlowPlan>(em, id, (run) => {
    if (FLOW_RUN_TERMINAL.includes(run.status)) return { endedAs: run.status };
    if (run.status === 'queued') run.status = 'running';
    return {
      steps: run.definition.map((s) => ({
        name: s.name,
        type: s.type,
        ...(s.type === 'delay' ? { seconds: s.seconds } : {}),
        ...(s.type === 'approval' && s.approvalPolicy ? { policy: s.approvalPolicy } : {}),
      })),
    };
  });
  return plan ?? { endedAs: 'cancelled' };
}

export async function markFlowStep(
  em: EntityManager,
  id: string,
  index: number,
  patch: Partial<FlowRunStepState>,
): Promise<void> {
  await updateFlowRun(em, id, (run) => {
    patchStep(run, index, patch);
  });
}

function stepOf<T extends FlowStep['type']>(run: FlowRun, index: number, type: T): Extract<FlowStep, { type: T }> {
  const step = run.definition[index];
  if (step?.type !== type) throw new Error(`Step ${index} of flow run ${run.id} is not a ${type} step`);
  return step as Extract<FlowStep, { type: T }>;
}

function compare(op: string, actual: unknown, expected: unknown): boolean {
  switch (op) {
    case 'eq':
      return JSON.stringify(actual) === JSON.stringify(expected);
    case 'ne':
      return JSON.stringify(actual) !== JSON.stringify(expected);
    case 'gt':
    case 'lt': {
      const same = typeof actual === typeof expected && (typeof actual === 'number' || typeof actual === 'string');
      if (!same) return false;
      return op === 'gt' ? (actual as number) > (expected as number) : (actual as number) < (expected as number);
    }
    case 'contains':
      if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected);
      if (Array.isArray(actual)) return actual.some((v) => JSON.stringify(v) === JSON.stringify(expected));
      return false;
    default:
      return false;
  }
}

/**
 * A condition step: true goes on with the next step; false does what `else` says (stop the flow, which
 * then succeeds, or jump to a later step, skipping those between). A missing path is false, except
 * for `exists`, which asks exactly that.
 */
export async function conditionStep(em: EntityManager, id: string, index: number): Promise<ConditionOutcome> {
  const outcome = await updateFlowRun<ConditionOutcome>(em, id, (run) => {
    const step = stepOf(run, index, 'condition');
    const result = renderStep(run, (scope) => {
      if (step.if.op === 'exists') return pathExists(step.if.path, scope);
      if (!pathExists(step.if.path, scope)) return false;
      return compare(step.if.op, resolvePath(step.if.path, scope), render(step.if.value ?? null, scope));
    });
    patchStep(run, index, { status: 'succeeded', output: { result } });
    if (result) return { next: 'continue' };
    if (step.else === 'stop') {
      run.steps = run.steps.map((s, i) => (i > index ? { ...s, status: 'skipped' } : s));
      return { next: 'stop' };
    }
    const target = run.definition.findIndex((s) => s.name === step.else);
    run.steps = run.steps.map((s, i) => (i > index && i < target ? { ...s, status: 'skipped' } : s));
    return { next: 'jump', index: target };
  });
  return outcome ?? { next: 'stop' };
}

/**
 * An approval step begins: the message is rendered and the flow run waits in `waiting_approval`. Under a
 * policy, the pending approval and the step's output show `progress` (docs/api/flows.md#approval-policies).
 */
export async function awaitApproval(
  em: EntityManager,
  id: string,
  index: number,
  actionId: string,
  progress?: PolicyProgress,
): Promise<void> {
  await updateFlowRun(em, id, (run) => {
    const step = stepOf(run, index, 'approval');
    const message = renderStep(run, (scope) => renderText(step.message, scope));
    if (FLOW_RUN_TERMINAL.includes(run.status)) return;
    run.status = 'waiting_approval';
    run.pendingApproval = { id: actionId, step: step.name, message, ...progress };
    patchStep(run, index, { status: 'waiting', output: { message, ...stepProgress(progress) } });
  });
}

/**
 * Shows an approval step's progress under its policy (an approval counted, an escalation) on the pending
 * approval and the step's output; nothing once the step is no longer the one waiting.
 */
export async function showApproval(
  em: EntityManager,
  id: string,
  index: number,
  actionId: string,
  progress: PolicyProgress,
): Promise<void> {
  await updateFlowRun(em, id, (run) => {
    if (run.pendingApproval?.id !== actionId) return;
    run.pendingApproval = { ...run.pendingApproval, ...progress };
    const prior = (run.steps[index]?.output ?? {}) as Record<string, unknown>;
    patchStep(run, index, { output: { ...prior, ...stepProgress(progress) } });
  });
}

/** What an approval step's output shows of its policy's progress (the policy itself is in the definition). */
export function stepProgress(progress: PolicyProgress | undefined): Record<string, unknown> {
  if (!progress) return {};
  const { approvals, remaining, expiresAt, escalated } = progress;
  return { approvals, remaining, expiresAt, escalated };
}

/** The approval's answer: recorded as the step's output; the flow run goes on running. */
export async function recordApproval(
  em: EntityManager,
  id: string,
  index: number,
  payload: ApprovalRecord,
): Promise<void> {
  await updateFlowRun(em, id, (run) => {
    const prior = (run.steps[index]?.output ?? {}) as Record<string, unknown>;
    const output = {
      ...prior,
      approved: payload.approved,
      comment: payload.comment ?? null,
      ...(payload.approvals ? { approvals: payload.approvals } : {}),
    };
    patchStep(run, index, { status: payload.approved ? 'succeeded' : 'failed', output });
    run.pendingApproval = null;
    if (run.status === 'waiting_approval') run.status = 'running';
  });
}

/**
 * The end of a flow run: its status, error and completion time; steps that never ran are `skipped`,
 * a step cut short by a cancel is `cancelled`. A flow run already finished is left as it is.
 */
export async function finishFlowRun(
  em: EntityManager,
  id: string,
  status: FlowRunStatus,
  error: FlowError | null,
): Promise<void> {
  await updateFlowRun(em, id, (run) => {
    if (FLOW_RUN_TERMINAL.includes(run.status)) return;
    run.status = status;
    run.error = error;
    run.pendingApproval = null;
    run.completedAt = new Date();
    run.steps = run.steps.map((s) => {
      if (s.status === 'pending') return { ...s, status: 'skipped' };
      if (s.status === 'running' || s.status === 'waiting') {
        return status === 'cancelled'
          ? { ...s, status: 'cancelled' }
          : { ...s, status: 'failed', error: s.error ?? error };
      }
      return s;
    });
  });
}
