import {
  ApplicationFailure,
  CancellationScope,
  ActivityFailure,
  allHandlersFinished,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { RunActivities, TransitionPatch } from './activityTypes';
import { ASK_USER, type AgentSettings, type ToolCall } from './agentTurn';
import { RunFailure } from './failures';
import {
  approveSignal,
  inputSignal,
  reviewSignal,
  stateQuery,
  type ApprovePayload,
  type InputPayload,
  type PendingAction,
  type ReviewPayload,
  type RunError,
  type RunState,
  type RunWorkflowArgs,
} from './messages';
import { awaitPolicy, openingProgress, PolicyTally, type PolicyOutcome } from './policyGate';
import { THREE_ATTEMPTS, STORE_WRITES } from './retryPolicies';
import { runStatusAttribute } from './runStatusAttribute';
import { ownAnnouncements } from './webhookDelivery';

// Read-model writes, as local activities: run by the worker inside the workflow task that schedules them,
// with no round trip through the server's task queues (docs/api/runs.md#how-a-run-executes-operators).
// Retried without limit (a database outage must not fail runs), each short.
const store = proxyLocalActivities<RunActivities>({ startToCloseTimeout: '30 seconds', retry: STORE_WRITES });
// Model and tool calls: heartbeats let a cancel reach an in-flight call, and a dead worker is noticed fast.
const work = proxyActivities<RunActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '15 seconds',
  retry: THREE_ATTEMPTS,
});

// Turns of a model computed in the worker with no I/O (`turnsInProcess`): the same attempts and timeout, no
// heartbeats (only a call waiting on a provider needs them; the workflow task's timeout notices a dead worker).
const localWork = proxyLocalActivities<RunActivities>({ startToCloseTimeout: '10 minutes', retry: THREE_ATTEMPTS });

function needsApproval(settings: AgentSettings, tool: string): boolean {
  if (settings.approvalTools?.includes(tool)) return true;
  return settings.approval === 'before_tools' && !settings.approvalTools?.length;
}

const RUN_FAILURE_CODES: readonly string[] = Object.values(RunFailure);

function runError(err: unknown): RunError {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  // Only our own codes pass through: Temporal names any other thrown error's type after its class
  // (`ModelError`, `TypeError`), which is no error code of docs/api/errors.md.
  if (failure instanceof ApplicationFailure && failure.type && RUN_FAILURE_CODES.includes(failure.type)) {
    return { code: failure.type, message: failure.message };
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  return { code: err instanceof ActivityFailure ? RunFailure.modelError : RunFailure.internal, message };
}

const fail = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });

/**
 * One run of an agent (docs/api/runs.md): queued → running → (needs_input | needs_approval |
 * needs_review → running)* → succeeded | failed, or cancelled from any non-terminal status. The workflow
 * decides every transition; activities write the read model. Deterministic: only workflow APIs and
 * activities. A cancel of the workflow cancels what runs (a gate's wait, an in-flight model or tool
 * call through its activity's cancellation), writes `cancelled` and closes the workflow as Canceled.
 */
export async function runWorkflow({ runId }: RunWorkflowArgs): Promise<RunState> {
  const state: RunState = { status: 'queued', pendingAction: null, output: null, error: null };
  // A child run (a flow's agent step, a conversation's turn, an eval's case) closes as soon as it has
  // finished, because its parent waits for its close and no receiver may delay that: its status writes
  // start fan-out workflows of their own (webhookFanoutWorkflow).
  const announcesInline = !workflowInfo().parent;
  const shown = runStatusAttribute();
  const announcements = ownAnnouncements();
  const root = CancellationScope.current();
  let answer: InputPayload | ApprovePayload | ReviewPayload | undefined;
  let step = 0;

  setHandler(stateQuery, () => state);
  /**
   * Answers that name a gate not open yet, by its action id. The read-model writes being local, a gate's
   * status reaches the database inside the workflow task that opens the gate, before Temporal records
   * that task; a worker that dies in between leaves a gate a person can answer (the API checks the
   * database) and the next worker opens again only after it has handled the answer's signal. The answer
   * waits here for its gate (action ids are the workflow's own deterministic uuids, so no other gate
   * takes it).
   */
  const early = new Map<
    string,
    Array<{ type: PendingAction['type']; payload: InputPayload | ApprovePayload | ReviewPayload }>
  >();
  // The approvals of the open gate under a policy: each one counts, once per person.
  let tally: PolicyTally | undefined;
  // A stale or repeated answer changes nothing: it must name the pending action, if it names one.
  const accept = (type: PendingAction['type']) => (payload: InputPayload | ApprovePayload | ReviewPayload) => {
    const pending = state.pendingAction;
    if (payload.actionId && payload.actionId !== pending?.id) {
      early.set(payload.actionId, [...(early.get(payload.actionId) ?? []), { type, payload }]);
      return;
    }
    if (!pending || pending.type !== type) return;
    if (tally && type === 'approval') return tally.take(payload as ApprovePayload, new Date().toISOString());
    if (answer === undefined) answer = payload;
  };
  setHandler(inputSignal, accept('input'));
  setHandler(approveSignal, accept('approval'));
  setHandler(reviewSignal, accept('review'));

  async function setStatus(patch: TransitionPatch): Promise<void> {
    state.status = patch.status;
    if (patch.pendingAction !== undefined) state.pendingAction = patch.pendingAction;
    shown.changed(patch.status);
    announcements.deliver(await store.transition(runId, patch, { announcesInline }));
  }

  /**
   * Pauses for a person: records the waiting step, sets the status, waits for the matching signal (or,
   * with `wait`, for what it waits for). `record` stores the answer and completes the step (default: the
   * answer in the step's detail).
   */
  async function gate<T>(
    action: PendingAction,
    status: 'needs_input' | 'needs_approval' | 'needs_review',
    record?: (index: number, given: T) => Promise<void>,
    wait?: () => Promise<T>,
  ): Promise<T> {
    answer = undefined;
    const index = step++;
    state.pendingAction = action;
    for (const waiting of early.get(action.id) ?? []) accept(waiting.type)(waiting.payload);
    await store.recordStep(runId, index, action.type, 'waiting', { ...action });
    await setStatus({ status, pendingAction: action });
    shown.waiting();
    if (!wait) await condition(() => answer !== undefined);
    const given = wait ? await wait() : (answer as T);
    if (record) await record(index, given);
    else await store.recordStep(runId, index, action.type, 'succeeded', { answer: given });
    await setStatus({ status: 'running', pendingAction: null });
    return given;
  }

  /**
   * An approval gate: under the agent's policy, the approvals its policy asks for, counted here
   * (policyGate.ts); else the first answer. The outcome's `comment` explains a refusal.
   */
  async function approval(
    settings: AgentSettings,
    action: Extract<PendingAction, { type: 'approval' }>,
  ): Promise<PolicyOutcome | ApprovePayload> {
    const policy = settings.approvalPolicy;
    if (!policy) return gate<ApprovePayload>(action, 'needs_approval');
    const openedAt = Date.now();
    let current: PendingAction = { ...action, ...openingProgress(policy, openedAt) };
    tally = new PolicyTally(policy);
    const counting = tally;
    try {
      return await gate<PolicyOutcome>(current, 'needs_approval', undefined, () =>
        awaitPolicy(
          counting,
          {
            show: async (progress, event) => {
              current = { ...current, ...progress };
              state.pendingAction = current;
              await store.showApproval(runId, current, event);
            },
            notify: async (reason) => {
              // Telling people is best effort: a mail server that is down never fails the run.
              await work.notifyApprovers(runId, action.id, reason).catch(() => undefined);
            },
          },
          openedAt,
        ),
      );
    } finally {
      tally = undefined;
    }
  }

  /** Fails the run when an approval gate refused: rejected, or expired under `onExpiry: fail`. */
  function refused(decision: PolicyOutcome | ApprovePayload, otherwise: string): void {
    if (decision.approved) return;
    const code = 'expiry' in decision && decision.expiry === 'fail' ? RunFailure.approvalExpired : RunFailure.rejected;
    throw fail(code, decision.comment ?? otherwise);
  }

  const questionOf = (call: ToolCall) =>
    typeof call.args.question === 'string' ? call.args.question : JSON.stringify(call.args);

  /** The tool approval gate, when the agent's settings ask for one; a refusal fails the run. */
  async function approveTool(settings: AgentSettings, call: ToolCall): Promise<void> {
    if (!needsApproval(settings, call.name)) return;
    const decision = await approval(settings, { id: uuid4(), type: 'approval', tool: call.name, args: call.args });
    refused(decision, `Tool call ${call.name} was rejected`);
  }

  /** A tool call of a run whose conversation is stored: the result (or the answer) is stored at `at`. */
  async function useTool(settings: AgentSettings, call: ToolCall, at: number): Promise<void> {
    if (call.name === ASK_USER) {
      await gate<InputPayload>(
        { id: uuid4(), type: 'input', question: questionOf(call) },
        'needs_input',
        (index, given) => store.recordAnswer(runId, index, at, call.id, given),
      );
      return;
    }
    await approveTool(settings, call);
    shown.waiting();
    await work.useTool(runId, step++, at, call.id);
  }

  async function deliver(settings: AgentSettings, proposed: unknown): Promise<unknown> {
    let output = proposed;
    if (settings.approval === 'before_output') {
      const decision = await approval(settings, { id: uuid4(), type: 'approval', proposedOutput: output });
      refused(decision, 'The output was rejected');
    }
    if (settings.review) {
      const review = await gate<ReviewPayload>({ id: uuid4(), type: 'review', proposedOutput: output }, 'needs_review');
      if (review.correctedOutput !== undefined) output = review.correctedOutput;
      else if (!review.accept) throw fail(RunFailure.reviewRejected, 'The output was rejected in review');
    }
    return output;
  }

  let endedBeforeStart = false;
  async function execute(): Promise<unknown> {
    const plan = await store.beginRun(runId);
    if ('endedAs' in plan) {
      endedBeforeStart = true;
      state.status = plan.endedAs;
      shown.changed(plan.endedAs);
      shown.waiting();
      return null;
    }
    state.status = 'running';
    shown.changed('running');
    return storedConversation(plan.settings, plan.turnsInProcess === true ? localWork : work);
  }

  /** The turns of a run whose conversation is stored in PostgreSQL: only ids and indexes cross. */
  async function storedConversation(settings: AgentSettings, turns: typeof work): Promise<unknown> {
    let at = 0; // where the next message goes in the run's conversation
    for (let turn = 0; ; turn++) {
      if (turn >= settings.maxSteps)
        throw fail(RunFailure.maxSteps, `No result after ${settings.maxSteps} model turns`);
      if (turns === work) shown.waiting();
      const decision = await turns.nextTurn(runId, step++, at);
      if (decision.kind === 'fail') throw fail(RunFailure.modelError, decision.message);
      if (decision.kind === 'final') return deliver(settings, decision.output);
      at++;
      for (const call of decision.toolCalls) await useTool(settings, call, at++);
    }
  }

  let final: TransitionPatch;
  let cancellation: unknown;
  try {
    const output = await execute();
    if (endedBeforeStart) return state;
    final = { status: 'succeeded', output, pendingAction: null };
  } catch (err) {
    if (isCancellation(err) && root.consideredCancelled) {
      cancellation = err;
      final = { status: 'cancelled', pendingAction: null };
    } else {
      final = { status: 'failed', error: runError(err), pendingAction: null };
    }
  }
  state.output = final.output ?? null;
  state.error = final.error ?? null;
  // Finishing is never interrupted: the charge and the terminal status are written whatever arrives now.
  await CancellationScope.nonCancellable(async () => {
    state.status = final.status;
    state.pendingAction = null;
    shown.changed(final.status);
    shown.waiting();
    announcements.deliver(await store.finishRun(runId, final, { announcesInline }), true);
    await announcements.ended();
    await condition(allHandlersFinished);
  });
  if (root.consideredCancelled && final.status === 'cancelled') throw cancellation;
  return state;
}
