import { CancelledFailure, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { runWorkflow } from '../../workflows';
import { approveSignal, inputSignal, reviewSignal, stateQuery } from '../../workflows/messages';
import type { TurnDecision } from '../../workflows/activityTypes';
import {
  settledWithClockHeld,
  startTimeSkipping,
  TIME_SKIPPING_SETUP_MS,
  timeSkippingQueue,
  workflowWorker,
} from '../helpers/timeSkipping';
import { stubRun } from './stubRun';

// Each file bundles the workflows and starts a JVM test server; on a busy two-core machine that alone can take
// most of jest's default minute, while the skipped clock keeps what is asserted independent of it.
jest.setTimeout(180_000);

// The run workflow's gates and cancellation, with scripted model turns (the HTTP side of the same rules is
// test/runs/; here: which gate opens when, and what a cancel at each point leaves).
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await startTimeSkipping();
}, TIME_SKIPPING_SETUP_MS);
afterAll(async () => {
  await env?.teardown();
});

const askUser: TurnDecision = {
  kind: 'tool_calls',
  toolCalls: [{ id: 'c1', name: 'ask_user', args: { question: 'Which city?' } }],
};
const final: TurnDecision = { kind: 'final', output: { city: 'Lyon' } };
const allGates = { approval: 'before_output' as const, review: true };

async function started(run: ReturnType<typeof stubRun>) {
  const taskQueue = timeSkippingQueue();
  const worker = await workflowWorker(env, taskQueue, run.activities);
  const handle = await env.client.workflow.start(runWorkflow, {
    args: [{ runId: 'run-1' }],
    workflowId: `run-${taskQueue}`,
    taskQueue,
  });
  return { worker, handle };
}

/** The pending action's id, which an answer names. */
async function pendingId(handle: Awaited<ReturnType<typeof started>>['handle']): Promise<string> {
  const state = await handle.query(stateQuery);
  if (!state.pendingAction) throw new Error(`no pending action; status ${state.status}`);
  return state.pendingAction.id;
}

/** Waits for the cancelled workflow to close, with the clock held still (a cancel test needs no time to pass). */
async function expectCancelled(handle: WorkflowHandle) {
  const err = await settledWithClockHeld(env, handle);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
}

describe('the run workflow', () => {
  it('opens its gates in order, input then approval then review, and succeeds with the reviewed output', async () => {
    const run = stubRun(allGates, [askUser, final]);
    const { worker, handle } = await started(run);
    await worker.runUntil(async () => {
      await run.reached('needs_input');
      expect((await handle.query(stateQuery)).pendingAction).toMatchObject({ type: 'input', question: 'Which city?' });
      await handle.signal(inputSignal, { actionId: await pendingId(handle), answer: 'Lyon' });
      await run.reached('needs_approval');
      expect((await handle.query(stateQuery)).pendingAction).toMatchObject({
        type: 'approval',
        proposedOutput: final.output,
      });
      await handle.signal(approveSignal, { actionId: await pendingId(handle), approved: true });
      await run.reached('needs_review');
      await handle.signal(reviewSignal, {
        actionId: await pendingId(handle),
        accept: true,
        correctedOutput: { city: 'Paris' },
      });
      const state = await handle.result();
      expect(state).toMatchObject({ status: 'succeeded', output: { city: 'Paris' }, pendingAction: null });
    });
    expect(run.statuses).toEqual([
      'running',
      'needs_input',
      'running',
      'needs_approval',
      'running',
      'needs_review',
      'running',
      'succeeded',
    ]);
  });

  it('ignores an answer that names another action, and an answer of the wrong kind', async () => {
    const run = stubRun(allGates, [final]);
    const { worker, handle } = await started(run);
    await worker.runUntil(async () => {
      await run.reached('needs_approval');
      await handle.signal(approveSignal, { actionId: 'not-this-one', approved: true });
      await handle.signal(reviewSignal, { actionId: await pendingId(handle), accept: true });
      // the query is answered after the signals before it: the gate is still open
      expect((await handle.query(stateQuery)).status).toBe('needs_approval');
      await handle.signal(approveSignal, { actionId: await pendingId(handle), approved: false, comment: 'no' });
      const state = await handle.result();
      expect(state).toMatchObject({ status: 'failed', error: { code: 'run.rejected', message: 'no' } });
    });
  });

  it('cancelled while queued: never begins, writes cancelled and closes as Canceled', async () => {
    const run = stubRun(allGates, [final]);
    const { worker, handle } = await started(run);
    // the cancel is in the workflow's first task, before any worker took it
    await handle.cancel();
    await worker.runUntil(expectCancelled(handle));
    expect(run.begun()).toBe(false);
    expect(run.statuses).toEqual(['cancelled']);
  });

  it('cancelled while a model call is in flight: the call is cancelled, the run writes cancelled', async () => {
    const run = stubRun(allGates, ['blocks']);
    const { worker, handle } = await started(run);
    await worker.runUntil(async () => {
      await run.blockingTurn;
      await handle.cancel();
      await expectCancelled(handle);
    });
    expect(run.statuses).toEqual(['running', 'cancelled']);
  });

  it.each([
    ['needs_input', [askUser, final]],
    ['needs_approval', [final]],
    ['needs_review', [final]],
  ] as const)('cancelled at its %s gate: writes cancelled, with no pending action left', async (gate, turns) => {
    const run = stubRun(gate === 'needs_review' ? { review: true } : allGates, [...turns]);
    const { worker, handle } = await started(run);
    await worker.runUntil(async () => {
      await run.reached(gate);
      await handle.cancel();
      await expectCancelled(handle);
    });
    expect(run.statuses.at(-2)).toBe(gate);
    expect(run.statuses.at(-1)).toBe('cancelled');
    expect(run.steps.filter((s) => s.status === 'waiting').map((s) => s.type)).toEqual([gate.replace('needs_', '')]);
  });
});
