import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  allHandlersFinished,
  condition,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
  uuid4,
} from '@temporalio/workflow';
import {
  FlowFailure,
  flowApprovalSignal,
  type ApprovalPayload,
  type FlowActivities,
  type FlowError,
  type FlowPlanStep,
  type FlowRunStatus,
  type FlowWorkflowArgs,
} from './flowMessages';
import { outputDeliverer } from './outputDelivery';
import { awaitPolicy, openingProgress, PolicyTally } from './policyGate';
import { STORE_WRITES, THREE_ATTEMPTS } from './retryPolicies';
import { startChildRun } from './startChildRun';

// Read-model writes and step bookkeeping: retried without limit (a database outage delays, never fails).
const store = proxyActivities<FlowActivities>({ startToCloseTimeout: '30 seconds', retry: STORE_WRITES });
// Outbound calls: 3 attempts, 1 s then 2 s apart; a refused address or a non-2xx answer is final at once.
const outbound = proxyActivities<FlowActivities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '20 seconds',
  retry: THREE_ATTEMPTS,
});

const FLOW_CODES: readonly string[] = Object.values(FlowFailure);

function flowError(err: unknown): FlowError {
  let failure = err;
  while (failure instanceof ActivityFailure || failure instanceof ChildWorkflowFailure) failure = failure.cause;
  if (failure instanceof ApplicationFailure && failure.type && FLOW_CODES.includes(failure.type)) {
    return { code: failure.type, message: failure.message };
  }
  return { code: FlowFailure.internal, message: failure instanceof Error ? failure.message : String(failure) };
}

/**
 * One run of a flow (docs/api/flows.md#how-a-flow-runs): its steps in order, each recorded in the read
 * model by activities. A delay is a durable timer; an approval waits for the signal naming it; an agent
 * step starts the run its activity created as the child workflow `run-<id>` and waits for it, however
 * long it waits on a person. A cancel of this workflow cancels what runs (the child run included),
 * writes `cancelled` and closes the workflow as Canceled.
 */
export async function flowWorkflow({ flowRunId }: FlowWorkflowArgs): Promise<FlowRunStatus> {
  let waitingFor: string | undefined;
  let approval: ApprovalPayload | undefined;
  // The approvals of the open approval step under a policy: each one counts, once per person.
  let tally: PolicyTally | undefined;
  setHandler(flowApprovalSignal, (payload) => {
    if (waitingFor === undefined || payload.actionId !== waitingFor) return;
    if (tally) tally.take(payload, new Date().toISOString());
    else if (approval === undefined) approval = payload;
  });

  /**
   * An approval step under a policy (docs/api/flows.md#approval-policies): the approvals it asks for,
   * counted here, with its expiry, escalation and reminders as durable timers (policyGate.ts).
   */
  async function approveUnderPolicy(index: number, actionId: string, step: FlowPlanStep): Promise<void> {
    const policy = step.policy!;
    const openedAt = Date.now();
    const counting = new PolicyTally(policy);
    tally = counting;
    await store.flowAwaitApproval(flowRunId, index, actionId, openingProgress(policy, openedAt));
    const outcome = await awaitPolicy(
      counting,
      {
        show: (progress, event) => store.flowShowApproval(flowRunId, index, actionId, progress, event),
        // Telling people is best effort: a mail server that is down never fails the flow run.
        notify: (reason) => outbound.flowNotifyApprovers(flowRunId, actionId, reason).catch(() => undefined),
      },
      openedAt,
    );
    const approvals = counting.approvals;
    tally = undefined;
    waitingFor = undefined;
    const comment = outcome.approved ? undefined : outcome.comment;
    await store.flowRecordApproval(flowRunId, index, { actionId, approved: outcome.approved, comment, approvals });
    if (!outcome.approved) {
      const type = outcome.expiry === 'fail' ? FlowFailure.approvalExpired : FlowFailure.rejected;
      throw ApplicationFailure.create({ type, message: outcome.comment, nonRetryable: true });
    }
  }

  const plan = await store.beginFlowRun(flowRunId);
  if ('endedAs' in plan) return plan.endedAs;

  let status: FlowRunStatus = 'succeeded';
  let error: FlowError | null = null;
  let cancellation: unknown;
  let current = -1;
  try {
    for (let i = 0; i < plan.steps.length;) {
      const step = plan.steps[i];
      current = i;
      let next = i + 1;
      switch (step.type) {
        case 'delay':
          await store.markFlowStep(flowRunId, i, { status: 'running' });
          await sleep((step.seconds ?? 0) * 1000);
          await store.markFlowStep(flowRunId, i, { status: 'succeeded', output: { seconds: step.seconds ?? 0 } });
          break;
        case 'http':
          await store.markFlowStep(flowRunId, i, { status: 'running' });
          await outbound.flowHttpStep(flowRunId, i);
          break;
        case 'save_output': {
          await store.markFlowStep(flowRunId, i, { status: 'running' });
          const deliveryId = await store.flowRecordSaveOutput(flowRunId, i);
          if (deliveryId === null) break;
          // signed and guarded like a webhook, 3 attempts (workflows/outputDelivery.ts)
          const outcome = await outputDeliverer()(deliveryId);
          await store.flowFinishSaveOutput(flowRunId, i, deliveryId, outcome);
          break;
        }
        case 'condition': {
          const outcome = await store.flowConditionStep(flowRunId, i);
          if (outcome.next === 'stop') next = plan.steps.length;
          else if (outcome.next === 'jump') next = outcome.index;
          break;
        }
        case 'approval': {
          approval = undefined;
          waitingFor = uuid4();
          if (step.policy) {
            await approveUnderPolicy(i, waitingFor, step);
            break;
          }
          await store.flowAwaitApproval(flowRunId, i, waitingFor);
          await condition(() => approval !== undefined);
          const answer = approval!;
          waitingFor = undefined;
          await store.flowRecordApproval(flowRunId, i, answer);
          if (!answer.approved) {
            throw ApplicationFailure.create({
              type: FlowFailure.rejected,
              message: answer.comment ?? `Step "${step.name}" was rejected`,
              nonRetryable: true,
            });
          }
          break;
        }
        case 'agent': {
          const made = await store.flowCreateAgentRun(flowRunId, i);
          const child = await startChildRun(made);
          try {
            await child.result();
          } catch (err) {
            // The run ended some other way (cancelled on its own): the step reads how, below.
            if (CancellationScope.current().consideredCancelled) throw err;
          }
          await store.flowFinishAgentStep(flowRunId, i, made.runId);
          break;
        }
      }
      i = next;
    }
  } catch (err) {
    if (isCancellation(err) && CancellationScope.current().consideredCancelled) {
      status = 'cancelled';
      cancellation = err;
    } else {
      status = 'failed';
      error = flowError(err);
    }
  }
  // Finishing is never interrupted: the failed step and the terminal status are written whatever arrives now.
  await CancellationScope.nonCancellable(async () => {
    if (status === 'failed' && current >= 0) await store.markFlowStep(flowRunId, current, { status: 'failed', error });
    await store.finishFlowRun(flowRunId, status, error);
    await condition(allHandlersFinished);
  });
  if (cancellation) throw cancellation;
  return status;
}
