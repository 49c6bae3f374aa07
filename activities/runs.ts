import { ApplicationFailure, Context } from '@temporalio/activity';
import { InsufficientCredits } from '../domain/billing/holds';
import { ModelError } from '../domain/models/types';
import { createRunExecution, RunNotExecutable, ToolNotAllowed, type RunExecutionDeps } from '../domain/runs/execution';
import { createStoredTurns } from '../domain/runs/storedTurns';
import { showApproval } from '../domain/runs/approvalProgress';
import { notifyApprovers, type NoticeDeps } from '../domain/runs/approvalNotices';
import type { RunActivities } from '../workflows/activityTypes';
import { RunFailure } from '../workflows/failures';

/**
 * The run workflow's activities: Temporal's side of domain/runs/execution.ts. Heartbeats, the
 * activity's cancellation signal and the conversion of domain errors into ApplicationFailures live
 * here; the rules live in the domain.
 */
export function createRunActivities(deps: RunExecutionDeps & { notices: NoticeDeps }) {
  const run = createRunExecution(deps);
  const turns = createStoredTurns(deps, run);
  return {
    async beginRun(runId) {
      try {
        return await turns.beginRun(runId);
      } catch (err) {
        throw notExecutable(err);
      }
    },
    transition: run.transition,
    recordStep: run.recordStep,
    recordAnswer: turns.recordAnswer,
    finishRun: run.finishRun,
    showApproval: (runId, action, event) => showApproval(deps.orm.em.fork(), runId, action, event),
    async notifyApprovers(runId, actionId, reason) {
      await notifyApprovers(deps.notices, deps.orm.em.fork(), runId, actionId, reason);
    },
    nextTurn: (runId, index, at) =>
      withHeartbeat(async (signal) => {
        try {
          return await turns.nextTurn(runId, index, at, signal);
        } catch (err) {
          throw err instanceof ModelError ? modelFailure(err) : notExecutable(err);
        }
      }),
    useTool: (runId, index, at, callId) =>
      withHeartbeat(async (signal) => {
        try {
          await turns.useTool(runId, index, at, callId, signal);
        } catch (err) {
          throw notExecutable(err);
        }
      }),
  } satisfies RunActivities;
}

/** Errors no retry can mend, as non-retryable failures with their run error code; anything else unchanged. */
function notExecutable(err: unknown): unknown {
  if (err instanceof ToolNotAllowed) {
    return ApplicationFailure.create({ type: RunFailure.toolNotAllowed, message: err.message, nonRetryable: true });
  }
  if (err instanceof InsufficientCredits) {
    return ApplicationFailure.create({
      type: RunFailure.insufficientCredits,
      message: err.message,
      nonRetryable: true,
    });
  }
  if (err instanceof RunNotExecutable) {
    return ApplicationFailure.create({ type: RunFailure.agentMissing, message: err.message, nonRetryable: true });
  }
  return err;
}

/**
 * A failed model call as Temporal's retry policy reads it: a permanent failure is not retried, and a
 * `Retry-After` from the provider becomes the delay before the next attempt.
 */
function modelFailure(err: ModelError): ApplicationFailure {
  const retryAfterMs = (err as { retryAfterMs?: number }).retryAfterMs;
  return ApplicationFailure.create({
    type: RunFailure.modelError,
    message: err.message,
    nonRetryable: !err.retryable,
    ...(retryAfterMs !== undefined ? { nextRetryDelay: retryAfterMs } : {}),
  });
}

/**
 * Runs an activity body while heartbeating every second: a dead worker is noticed within the
 * heartbeat timeout, and a cancel reaches the body through `signal` (heartbeats carry it). A local
 * activity (an in-process model's turn: workflows/runWorkflow.ts) has no heartbeats; its cancel reaches
 * `signal` from the worker itself.
 */
async function withHeartbeat<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  if (ctx.info.isLocal) return body(ctx.cancellationSignal);
  const beat = setInterval(() => ctx.heartbeat(), 1000);
  try {
    return await body(ctx.cancellationSignal);
  } finally {
    clearInterval(beat);
  }
}
