import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { proxyActivities } from '@temporalio/workflow';
import { EVAL_CONCURRENCY, type EvalActivities, type EvalWorkflowArgs } from './evalMessages';
import { STORE_WRITES, UNTIL_DONE } from './retryPolicies';
import { startChildRun } from './startChildRun';

// Read-model writes and the creation of case runs: retried without limit, each short. Creating a case
// run is idempotent (one result row per case, made with its run), so a retry never makes a second run.
const store = proxyActivities<EvalActivities>({ startToCloseTimeout: '30 seconds', retry: STORE_WRITES });
// Watching a case run answer its gates: long, with heartbeats so a dead worker is noticed fast.
const watch = proxyActivities<EvalActivities>({
  startToCloseTimeout: '24 hours',
  heartbeatTimeout: '15 seconds',
  retry: UNTIL_DONE,
});
// Scoring may ask a model (the judge), which makes its own attempts and scores 0 when they fail; the
// activity itself retries (database writes) without limit, with heartbeats while the model answers.
const judge = proxyActivities<EvalActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '15 seconds',
  retry: UNTIL_DONE,
});

/**
 * One eval run (docs/api/evals.md): each case becomes a real run, started as a child run workflow,
 * at most EVAL_CONCURRENCY at once; an activity answers its gates (`ask_user` from the case's answers,
 * approval and review accepted) through the same domain functions as the HTTP gate routes, then the
 * case is scored. Deterministic: the lanes take case indexes in order.
 */
export async function evalWorkflow({ evalRunId }: EvalWorkflowArgs): Promise<void> {
  const plan = await store.beginEvalRun(evalRunId);
  if (!plan) return;
  let next = 0;
  let gone = false;

  async function runCase(index: number): Promise<void> {
    const started = await store.createCaseRun(evalRunId, index);
    if (started.kind === 'gone') {
      gone = true;
      return;
    }
    if (started.kind === 'run') {
      const child = await startCaseRun(started.runId, plan!);
      await Promise.all([watch.superviseCase(evalRunId, index), child?.result().catch(() => undefined)]);
    }
    await judge.scoreCase(evalRunId, index);
  }

  async function lane(): Promise<void> {
    while (!gone && next < plan!.total) await runCase(next++);
  }

  await Promise.all(Array.from({ length: EVAL_CONCURRENCY }, () => lane()));
  if (!gone) await store.finishEvalRun(evalRunId, 'succeeded');
}

/** The case's run workflow `run-<id>` as a child, tagged like every run; null when it already exists. */
async function startCaseRun(runId: string, plan: { workspaceId: string; agentId: string }) {
  try {
    return await startChildRun({ runId, workspaceId: plan.workspaceId, agentId: plan.agentId });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return null;
    throw err;
  }
}
