import { CancelledFailure, WorkflowFailedError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { flowWorkflow } from '../../workflows';
import {
  flowApprovalSignal,
  type ConditionOutcome,
  type FlowActivities,
  type FlowError,
  type FlowPlanStep,
  type FlowRunStatus,
} from '../../workflows/flowMessages';
import {
  settledWithClockHeld,
  startTimeSkipping,
  TIME_SKIPPING_SETUP_MS,
  timeSkippingQueue,
  workflowWorker,
} from '../helpers/timeSkipping';

// Each file bundles the workflows and starts a JVM test server; on a busy two-core machine that alone can take
// most of jest's default minute, while the skipped clock keeps what is asserted independent of it.
jest.setTimeout(180_000);

// The flow workflow's step machine (docs/api/flows.md#how-a-flow-runs) with stand-in activities: what each
// step kind makes the workflow do next. The templates and conditions themselves are evaluated by the
// activities, tested over HTTP in test/flows/.
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, TIME_SKIPPING_SETUP_MS);
afterAll(async () => {
  await env?.teardown();
});

/** Stand-in flow activities: `steps` is the plan; `conditions` answers each condition step by its index. */
function stubFlow(steps: FlowPlanStep[], conditions: Record<number, ConditionOutcome> = {}) {
  const events: string[] = [];
  const times: Record<string, number> = {};
  const approvals: string[] = [];
  let finished: { status: FlowRunStatus; error: FlowError | null } | undefined;
  let approvalOpened!: () => void;
  const approvalOpen = new Promise<void>((resolve) => (approvalOpened = resolve));
  let delayStarted!: () => void;
  const delayRunning = new Promise<void>((resolve) => (delayStarted = resolve));
  const activities: Partial<FlowActivities> = {
    async beginFlowRun() {
      return { steps };
    },
    async markFlowStep(_id, index, patch) {
      events.push(`${index}:${patch.status}`);
      times[`${index}:${patch.status}`] = await env.currentTimeMs();
      if (steps[index].type === 'delay' && patch.status === 'running') delayStarted();
    },
    async flowHttpStep(_id, index) {
      events.push(`${index}:http`);
    },
    async flowConditionStep(_id, index) {
      events.push(`${index}:condition`);
      return conditions[index] ?? { next: 'continue' };
    },
    async flowAwaitApproval(_id, index, actionId) {
      events.push(`${index}:awaiting`);
      approvals.push(actionId);
      approvalOpened();
    },
    async flowRecordApproval(_id, index, payload) {
      events.push(`${index}:${payload.approved ? 'approved' : 'rejected'}`);
    },
    async finishFlowRun(_id, status, error) {
      finished = { status, error };
    },
  };
  return { activities, events, times, approvals, approvalOpen, delayRunning, finished: () => finished };
}

async function started(flow: ReturnType<typeof stubFlow>) {
  const taskQueue = timeSkippingQueue();
  const worker = await workflowWorker(env, taskQueue, flow.activities);
  const handle = await env.client.workflow.start(flowWorkflow, {
    args: [{ flowRunId: 'fr-1' }],
    workflowId: `flow-${taskQueue}`,
    taskQueue,
  });
  return { worker, handle };
}

const step = (type: FlowPlanStep['type'], extra: Partial<FlowPlanStep> = {}): FlowPlanStep => ({
  name: `${type}-step`,
  type,
  ...extra,
});

describe('the flow workflow', () => {
  it('waits out a delay step on a durable timer: an hour on the workflow clock, not on the machine', async () => {
    const flow = stubFlow([step('delay', { seconds: 3600 }), step('http')]);
    const { worker, handle } = await started(flow);
    const status = await worker.runUntil(handle.result());
    expect(status).toBe('succeeded');
    expect(flow.events).toEqual(['0:running', '0:succeeded', '1:running', '1:http']);
    expect(flow.times['0:succeeded'] - flow.times['0:running']).toBeGreaterThanOrEqual(3600_000);
    expect(flow.finished()).toEqual({ status: 'succeeded', error: null });
  });

  it('a condition that holds goes on; its else jumps to the named step; a stop ends the flow', async () => {
    const jump = stubFlow([step('condition'), step('http'), step('http'), step('http')], {
      0: { next: 'jump', index: 3 },
    });
    const started1 = await started(jump);
    expect(await started1.worker.runUntil(started1.handle.result())).toBe('succeeded');
    expect(jump.events).toEqual(['0:condition', '3:running', '3:http']);

    const stop = stubFlow([step('http'), step('condition'), step('http')], { 1: { next: 'stop' } });
    const started2 = await started(stop);
    expect(await started2.worker.runUntil(started2.handle.result())).toBe('succeeded');
    expect(stop.events).toEqual(['0:running', '0:http', '1:condition']);

    const holds = stubFlow([step('condition'), step('http')]);
    const started3 = await started(holds);
    expect(await started3.worker.runUntil(started3.handle.result())).toBe('succeeded');
    expect(holds.events).toEqual(['0:condition', '1:running', '1:http']);
  });

  it('an approval step waits for the signal naming it, then goes on', async () => {
    const flow = stubFlow([step('approval'), step('http')]);
    const { worker, handle } = await started(flow);
    const status = await worker.runUntil(async () => {
      await flow.approvalOpen;
      await handle.signal(flowApprovalSignal, { actionId: 'another-approval', approved: false });
      await handle.signal(flowApprovalSignal, { actionId: flow.approvals[0], approved: true });
      return handle.result();
    });
    expect(status).toBe('succeeded');
    expect(flow.events).toEqual(['0:awaiting', '0:approved', '1:running', '1:http']);
  });

  it('a rejected approval fails the flow with flow.rejected and marks its step failed', async () => {
    const flow = stubFlow([step('approval'), step('http')]);
    const { worker, handle } = await started(flow);
    const status = await worker.runUntil(async () => {
      await flow.approvalOpen;
      await handle.signal(flowApprovalSignal, { actionId: flow.approvals[0], approved: false, comment: 'not today' });
      return handle.result();
    });
    expect(status).toBe('failed');
    expect(flow.events).toEqual(['0:awaiting', '0:rejected', '0:failed']);
    expect(flow.finished()).toEqual({ status: 'failed', error: { code: 'flow.rejected', message: 'not today' } });
  });

  it('cancelled during a day-long delay step: the flow writes cancelled and closes as Canceled', async () => {
    const flow = stubFlow([step('delay', { seconds: 86_400 }), step('http')]);
    const { worker, handle } = await started(flow);
    const err = await worker.runUntil(async () => {
      await flow.delayRunning;
      await handle.cancel();
      return settledWithClockHeld(env, handle);
    });
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect(flow.events).toEqual(['0:running']);
    expect(flow.finished()).toEqual({ status: 'cancelled', error: null });
  });
});
