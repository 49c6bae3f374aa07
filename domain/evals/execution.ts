import type { EntityManager } from '@mikro-orm/postgresql';
import { AgentVersion } from '../../db/entities/Agent';
import { Eval } from '../../db/entities/Eval';
import { EvalResult, EvalRun } from '../../db/entities/EvalRun';
import { Run } from '../../db/entities/Run';
import type { Orm } from '../../db/orm';
import type { EvalPlan } from '../../workflows/evalMessages';
import type { ModelRegistry } from '../models/registry';
import { modelJudge } from './judge';
import { PASS_SCORE, scoreOutput } from './scorers';

export interface EvalExecutionDeps {
  orm: Orm;
  models: ModelRegistry;
}

/**
 * The eval workflow's bookkeeping (docs/api/evals.md): start, score each case, finish. Each is
 * idempotent, so Temporal may retry any of them: a scored case keeps its first score, and the eval
 * run's totals are recounted from its result rows.
 */

/** Marks the eval run running; null when it (or its eval) was deleted. */
export async function beginEvalRun(deps: EvalExecutionDeps, evalRunId: string): Promise<EvalPlan | null> {
  const em = deps.orm.em.fork();
  const run = await em.findOne(EvalRun, evalRunId);
  if (!run) return null;
  if (run.status === 'queued') {
    run.status = 'running';
    await em.flush();
  }
  return { total: run.total, workspaceId: run.workspaceId, agentId: run.agentId };
}

/**
 * Scores case `caseIndex` from its finished run: a run that did not succeed scores 0 (its error, or why it
 * was cancelled, in the detail); a succeeded one is scored by the case's scorer. Then the eval run's
 * `passed` and `score` are recounted.
 */
export async function scoreCase(
  deps: EvalExecutionDeps,
  evalRunId: string,
  caseIndex: number,
  signal?: AbortSignal,
): Promise<void> {
  const em = deps.orm.em.fork();
  const result = await em.findOne(EvalResult, { evalRunId, caseIndex });
  const evalRun = await em.findOne(EvalRun, evalRunId);
  const found = evalRun && (await em.findOne(Eval, evalRun.evalId));
  const testCase = found?.cases[caseIndex];
  if (!result || !evalRun || !testCase) return;
  if (result.passed === null) {
    const run = result.runId ? await em.findOne(Run, result.runId) : null;
    let score = 0;
    let detail: string;
    if (!run) {
      detail = result.detail ?? 'The case has no run';
    } else if (run.status !== 'succeeded') {
      detail = result.detail ?? `The run ${run.status}${run.error ? `: ${run.error.code}: ${run.error.message}` : ''}`;
    } else {
      const version = await em.findOne(AgentVersion, { agent: evalRun.agentId, version: evalRun.agentVersion });
      const judge = modelJudge(deps.models, version?.modelId ?? '', signal);
      ({ score, detail } = await scoreOutput(testCase.scorer, run.output, testCase.expected, judge));
    }
    await em.nativeUpdate(
      EvalResult,
      { id: result.id, passed: null },
      { passed: score >= PASS_SCORE, score, detail, updatedAt: new Date() },
    );
  }
  await recount(em, evalRunId, null);
}

/**
 * Ends the eval run: its score is the mean over all its cases (a case that never ran counts 0). It
 * `failed` when not one case got a run (the agent's model is gone, no credits at all), else `succeeded`.
 */
export async function finishEvalRun(
  deps: EvalExecutionDeps,
  evalRunId: string,
  status: 'succeeded' | 'failed',
): Promise<void> {
  const em = deps.orm.em.fork();
  const ran = await em.count(EvalResult, { evalRunId, runId: { $ne: null } });
  const run = await em.findOne(EvalRun, evalRunId);
  await recount(em, evalRunId, ran === 0 && (run?.total ?? 0) > 0 ? 'failed' : status);
}

/** Recounts `passed` and `score` from the result rows; with `status`, also ends the eval run. */
async function recount(em: EntityManager, evalRunId: string, status: 'succeeded' | 'failed' | null): Promise<void> {
  await em.getConnection().execute(
    `update eval_runs r set
        passed = (select count(*) from eval_results x where x.eval_run_id = r.id and x.passed),
        score = (select case when ?::text is null then avg(x.score) else coalesce(sum(x.score), 0) / greatest(r.total, 1) end
                   from eval_results x where x.eval_run_id = r.id and x.passed is not null),
        status = coalesce(?, r.status),
        completed_at = case when ?::text is null then r.completed_at else coalesce(r.completed_at, now()) end,
        updated_at = now()
      where r.id = ?`,
    [status, status, status, evalRunId],
  );
}
