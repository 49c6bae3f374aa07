import {
  allHandlersFinished,
  condition,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { BareActivities, DurableActivities, FanOutActivities } from './activities';

/*
 * The baselines of the benchmark: workflows with the same shape as a run (same number of activities
 * in the same order) whose activities do nothing. The worker bundles this file: workflow functions only.
 */

// The same timeouts and retry policy as the run workflow's read-model writes.
const { step } = proxyActivities<BareActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 ms', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** A run of `builtin/echo` without the service: startRun, modelTurn, finishRun as three empty activities. */
export async function bareRunWorkflow(activities: number): Promise<void> {
  for (let i = 0; i < activities; i++) await step(i);
}

const { record } = proxyActivities<DurableActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 ms', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * A run of `builtin/echo` without the service but with the writes no durable run can skip: the same three
 * activities, each recording the run's status in one commit (the client inserted its row before the start).
 */
export async function bareDurableRunWorkflow(runId: string): Promise<void> {
  await record(runId, 'running');
  await record(runId, 'turn');
  await record(runId, 'succeeded');
}

/** Answers the pending question; completes once the workflow is running again (like the run's SSE event). */
export const answerUpdate = defineUpdate<void, [number]>('answer');
/** Completes once the workflow waits for answer `n` (the run's next `needs_input`); not timed. */
export const askedUpdate = defineUpdate<void, [number]>('asked');

/**
 * The human gate of a run without the service. Per round, as the run workflow does it: two
 * activities between the answer and `running` (recordStep, transition), then three until the next
 * question (modelTurn, recordStep, transition).
 */
export async function bareGateWorkflow(rounds: number): Promise<void> {
  let answered = 0;
  let running = 0;
  let asked = 1;
  setHandler(answerUpdate, async (n) => {
    answered = Math.max(answered, n);
    await condition(() => running >= n);
  });
  setHandler(askedUpdate, async (n) => {
    await condition(() => asked >= n);
  });
  for (let round = 1; round <= rounds; round++) {
    await condition(() => answered >= round);
    await step(0);
    await step(1);
    running = round;
    await step(2);
    await step(3);
    await step(4);
    asked = round + 1;
  }
  await condition(allHandlersFinished);
}

// Local activities, as the run workflow's status write and its own fan-out are (runWorkflow.ts).
const { finishBare, fanOutBare } = proxyLocalActivities<FanOutActivities>({ startToCloseTimeout: '30 seconds' });

/**
 * A run's end and the announcement of it without the service (case 5's baseline): its status change in
 * one commit, then, as the run workflow's next local activity, its `urls.length` deliveries recorded in
 * one commit and sent at once. Returns when the status changed (epoch ms).
 */
export async function bareFanOutWorkflow(runId: string, urls: string[]): Promise<number> {
  const changedAt = await finishBare(runId);
  if (urls.length > 0) await fanOutBare(runId, urls);
  return changedAt;
}
