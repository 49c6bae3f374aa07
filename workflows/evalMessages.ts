/** The eval workflow's vocabulary, imported by the API (to start it) and by the workflow. */

export interface EvalWorkflowArgs {
  evalRunId: string;
}

/** The eval run's workflow id, `eval-<evalRunId>`, on the runs task queue (docs/api/evals.md). */
export const evalWorkflowId = (evalRunId: string) => `eval-${evalRunId}`;

/** At most this many case runs of one eval run are in flight at once. */
export const EVAL_CONCURRENCY = 4;

/** What an eval run needs to start its cases; null when its eval was deleted meanwhile. */
export interface EvalPlan {
  total: number;
  workspaceId: string;
  agentId: string;
}

/**
 * A case's run, made by `createCaseRun`: `run` to start and watch; `skipped` when no run could be made
 * (its result is already recorded, e.g. not enough credits); `gone` when the eval was deleted.
 */
export type CaseStart = { kind: 'run'; runId: string } | { kind: 'skipped' } | { kind: 'gone' };

/** The activities of the eval workflow (activities/evals.ts implements them). */
export interface EvalActivities {
  beginEvalRun(evalRunId: string): Promise<EvalPlan | null>;
  createCaseRun(evalRunId: string, caseIndex: number): Promise<CaseStart>;
  superviseCase(evalRunId: string, caseIndex: number): Promise<void>;
  scoreCase(evalRunId: string, caseIndex: number): Promise<void>;
  finishEvalRun(evalRunId: string, status: 'succeeded' | 'failed'): Promise<void>;
}
