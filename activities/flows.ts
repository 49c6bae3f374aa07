import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Orm } from '../db/orm';
import { notifyFlowApprovers, type FlowNoticeDeps } from '../domain/flows/approvalNotices';
import {
  awaitApproval,
  beginFlowRun,
  conditionStep,
  finishFlowRun,
  markFlowStep,
  recordApproval,
  showApproval,
} from '../domain/flows/execution';
import { finishSaveOutput, recordSaveOutput } from '../domain/flows/saveOutput';
import { FlowStepError } from '../domain/flows/stepError';
import { createAgentStepRun, finishAgentStep, httpStep, type HttpStepDeps } from '../domain/flows/steps';
import { createScheduledFlowRun } from '../domain/flows/triggers';
import type { ModelRegistry } from '../domain/models/registry';
import type { GateConfig } from '../domain/runs/runGate';
import { FlowFailure, type FlowActivities } from '../workflows/flowMessages';

export interface FlowActivityDeps {
  orm: Orm;
  models: ModelRegistry;
  config: GateConfig;
  http: HttpStepDeps;
  /** The mailer that tells a policy's approvers (domain/flows/approvalNotices.ts). */
  notices: FlowNoticeDeps;
}

/** A step's final failure becomes a non-retryable ApplicationFailure typed with its flow error code. */
async function final<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof FlowStepError) {
      throw ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: true });
    }
    throw err;
  }
}

/**
 * The flow workflows' activities: Temporal's side of domain/flows (execution.ts, steps.ts,
 * triggers.ts). Heartbeats and the conversion of step errors live here; the rules in the domain.
 */
export function createFlowActivities(deps: FlowActivityDeps): FlowActivities {
  const em = () => deps.orm.em.fork();
  return {
    beginFlowRun: (id) => beginFlowRun(em(), id),
    markFlowStep: (id, index, patch) => markFlowStep(em(), id, index, patch),
    flowHttpStep: (id, index) =>
      final(async () => {
        const ctx = Context.current();
        const beat = setInterval(() => ctx.heartbeat(), 1000);
        try {
          await httpStep(em(), deps.http, id, index, ctx.cancellationSignal);
        } finally {
          clearInterval(beat);
        }
      }),
    flowConditionStep: (id, index) => final(() => conditionStep(em(), id, index)),
    flowAwaitApproval: (id, index, actionId, progress) =>
      final(() => awaitApproval(em(), id, index, actionId, progress)),
    flowShowApproval: (id, index, actionId, progress) => showApproval(em(), id, index, actionId, progress),
    flowNotifyApprovers: async (id, actionId, reason) => {
      await notifyFlowApprovers(deps.notices, em(), id, actionId, reason);
    },
    flowRecordApproval: (id, index, payload) => recordApproval(em(), id, index, payload),
    flowCreateAgentRun: (id, index) =>
      final(async () => {
        const made = await createAgentStepRun(em(), deps.models, deps.config, id, index);
        if (!made) throw new FlowStepError(FlowFailure.internal, 'The flow run is gone');
        return made;
      }),
    flowFinishAgentStep: (id, index, runId) => final(() => finishAgentStep(em(), id, index, runId)),
    flowRecordSaveOutput: (id, index) => final(() => recordSaveOutput(em(), id, index)),
    flowFinishSaveOutput: (id, index, deliveryId, status) =>
      final(() => finishSaveOutput(em(), id, index, deliveryId, status)),
    finishFlowRun: (id, status, error) => finishFlowRun(em(), id, status, error),
    createScheduledFlowRun: (flowId, tickId) => createScheduledFlowRun(em(), flowId, tickId),
  };
}
