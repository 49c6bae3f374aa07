import type { Eval, EvalCase } from '../../db/entities/Eval';
import type { EvalResult, EvalRun, EvalRunStatus } from '../../db/entities/EvalRun';

export interface EvalView {
  id: string;
  agentId: string;
  name: string;
  cases: EvalCase[];
  createdAt: string;
}

export interface EvalResultView {
  caseIndex: number;
  runId: string | null;
  passed: boolean;
  score: number;
  detail: string | null;
}

export interface EvalRunView {
  id: string;
  evalId: string;
  agentVersion: number;
  status: EvalRunStatus;
  total: number;
  passed: number;
  score: number | null;
  results: EvalResultView[];
  createdAt: string;
  completedAt: string | null;
}

export function presentEval(e: Eval): EvalView {
  return { id: e.id, agentId: e.agentId, name: e.name, cases: e.cases, createdAt: e.createdAt.toISOString() };
}

/** An eval run with its scored cases in case order (a case still running is not listed yet). */
export function presentEvalRun(run: EvalRun, results: EvalResult[]): EvalRunView {
  return {
    id: run.id,
    evalId: run.evalId,
    agentVersion: run.agentVersion,
    status: run.status,
    total: run.total,
    passed: run.passed,
    score: run.score,
    results: results
      .filter((r) => r.passed !== null)
      .sort((a, b) => a.caseIndex - b.caseIndex)
      .map((r) => ({
        caseIndex: r.caseIndex,
        runId: r.runId,
        passed: r.passed!,
        score: r.score ?? 0,
        detail: r.detail,
      })),
    createdAt: run.createdAt.toISOString(),
    completedAt: run.completedAt?.toISOString() ?? null,
  };
}
