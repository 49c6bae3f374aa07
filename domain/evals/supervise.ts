import { Eval } from '../../db/entities/Eval';
import { EvalResult, EvalRun } from '../../db/entities/EvalRun';
import { Run } from '../../db/entities/Run';
import { RunStep } from '../../db/entities/RunStep';
import type { Orm } from '../../db/orm';
import { TERMINAL_STATUSES } from '../../workflows/messages';
import { ApiError } from '../errors';
import type { RelayDeps } from '../shared/outbox/relay';
import { answerGate, cancelRun } from '../runs/actions';
import { systemAuditContext } from '../audit/context';

export interface SuperviseDeps extends RelayDeps {
  orm: Orm;
}

/** How often a watched case run is read while it runs. */
const POLL_MS = 200;

/**
 * Watches the run of one case until it ends, answering its gates as a person would, through the same
 * functions as the HTTP gate routes (answerGate, cancelRun), so the read model, the outbox and the
 * signals stay as consistent as for any run: `ask_user` gets the case's `answers` in order (the n-th
 * question the n-th answer), approval is approved, review accepted. A question with no answer left
 * cancels the run, and the case's result notes why. Safe to repeat after a crash: an answer names the
 * pending action it answers, and a gate already answered is left to the workflow.
 * `beat` is called on every poll (the activity's heartbeat); `signal` stops the watch.
 */
export async function superviseCase(
  deps: SuperviseDeps,
  evalRunId: string,
  caseIndex: number,
  beat: () => void,
  signal: AbortSignal,
): Promise<void> {
  const em = deps.orm.em.fork();
  const result = await em.findOne(EvalResult, { evalRunId, caseIndex });
  const evalRun = await em.findOne(EvalRun, evalRunId);
  const found = evalRun && (await em.findOne(Eval, evalRun.evalId));
  if (!result?.runId || !evalRun || !found) return;
  const answers = found.cases[caseIndex]?.answers ?? [];
  const runId = result.runId;
  // Actions this watch has answered (or cancelled the run over): the workflow has yet to move on.
  const handled = new Set<string>();
  for (;;) {
    signal.throwIfAborted();
    beat();
    const run = await deps.orm.em.fork().findOne(Run, runId);
    if (!run || TERMINAL_STATUSES.includes(run.status)) return;
    const pending = run.pendingAction;
    if (pending && run.answeredActionId !== pending.id && !handled.has(pending.id)) {
      try {
        await answer(run, pending.id);
        handled.add(pending.id);
      } catch (err) {
        // Raced with the workflow moving on (or Temporal slow): the next poll looks again.
        if (!(err instanceof ApiError)) throw err;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  async function answer(run: Run, actionId: string): Promise<void> {
    const em = deps.orm.em.fork();
    const ws = run.workspaceId;
    // the eval answers its own case runs: the service is the actor in the audit log
    const audit = systemAuditContext(ws);
    if (run.status === 'needs_approval') {
      await answerGate(deps, em, ws, run.id, actionId, { gate: 'approve', payload: { approved: true } }, audit);
    } else if (run.status === 'needs_review') {
      await answerGate(deps, em, ws, run.id, actionId, { gate: 'review', payload: { accept: true } }, audit);
    } else if (run.status === 'needs_input') {
      // Every earlier question was answered (its step succeeded) before this one was asked.
      const asked = await em.count(RunStep, { runId: run.id, type: 'input', status: 'succeeded' });
      if (asked < answers.length) {
        const given = { gate: 'input', payload: { answer: answers[asked] } } as const;
        await answerGate(deps, em, ws, run.id, actionId, given, audit);
        return;
      }
      const question = run.pendingAction?.type === 'input' ? run.pendingAction.question : '';
      await em.nativeUpdate(
        EvalResult,
        { evalRunId, caseIndex, passed: null },
        { detail: `No answer left in the case's answers for question ${asked + 1}: ${question}` },
      );
      await cancelRun(deps, em, ws, run.id);
    }
  }
}
