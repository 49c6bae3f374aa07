import { Context } from '@temporalio/activity';
import { createCaseRun } from '../domain/evals/caseRuns';
import { beginEvalRun, finishEvalRun, scoreCase } from '../domain/evals/execution';
import { superviseCase } from '../domain/evals/supervise';
import type { ModelRegistry } from '../domain/models/registry';
import type { Orm } from '../db/orm';
import type { Config } from '../platform/config';
import type { Temporal } from '../platform/temporal';
import type { EvalActivities } from '../workflows/evalMessages';

export interface EvalActivityDeps {
  orm: Orm;
  models: ModelRegistry;
  config: Config;
  temporal: Temporal;
}

/** The eval workflow's activities: Temporal's side of domain/evals/ (heartbeats, cancellation). */
export function createEvalActivities(deps: EvalActivityDeps) {
  return {
    beginEvalRun: (evalRunId) => beginEvalRun(deps, evalRunId),
    createCaseRun: (evalRunId, caseIndex) => createCaseRun(deps, evalRunId, caseIndex),
    async superviseCase(evalRunId, caseIndex) {
      const ctx = Context.current();
      await superviseCase(deps, evalRunId, caseIndex, () => ctx.heartbeat(), ctx.cancellationSignal);
    },
    async scoreCase(evalRunId, caseIndex) {
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat(), 1000);
      try {
        await scoreCase(deps, evalRunId, caseIndex, ctx.cancellationSignal);
      } finally {
        clearInterval(beat);
      }
    },
    finishEvalRun: (evalRunId, status) => finishEvalRun(deps, evalRunId, status),
  } satisfies EvalActivities;
}
