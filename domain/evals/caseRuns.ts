import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AgentVersion } from '../../db/entities/Agent';
import { Eval } from '../../db/entities/Eval';
import { EvalResult, EvalRun } from '../../db/entities/EvalRun';
import type { Run } from '../../db/entities/Run';
import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import type { CaseStart } from '../../workflows/evalMessages';
import { usdToMicros } from '../shared/money';
import { ApiError } from '../errors';
import { estimateRunCostUsd, type ModelRegistry } from '../models/registry';
import { admitRun, onBehalfOfRow } from '../runs/runGate';

export interface CaseRunDeps {
  orm: Orm;
  models: ModelRegistry;
  config: Config;
}

/**
 * Makes the run of case `caseIndex` of an eval run, as `POST /v1/runs` would for the caller who started
 * the eval run: the same billing checks (unverified limit, spend cap, credits) and a credit hold, in
 * the transaction that inserts the run together with the case's result row. (evalRunId, caseIndex) is
 * unique, so a retried call (a worker killed after the commit) finds the run the first call made and
 * never makes or charges a second. The run's metadata carries `evalRunId`, `evalId` and `caseIndex`.
 * A check that refuses the run records the case as failed with the error in its detail (`skipped`).
 */
export async function createCaseRun(deps: CaseRunDeps, evalRunId: string, caseIndex: number): Promise<CaseStart> {
  const em = deps.orm.em.fork();
  const existing = await em.findOne(EvalResult, { evalRunId, caseIndex });
  if (existing) return existing.runId ? { kind: 'run', runId: existing.runId } : { kind: 'skipped' };
  const evalRun = await em.findOne(EvalRun, evalRunId);
  const found = evalRun && (await em.findOne(Eval, evalRun.evalId));
  const testCase = found?.cases[caseIndex];
  if (!evalRun || !found || !testCase) return { kind: 'gone' };

  const version = await em.findOne(AgentVersion, { agent: evalRun.agentId, version: evalRun.agentVersion });
  const model = version && deps.models.get(version.modelId);
  if (!version || !model) {
    return skip(em, evalRunId, caseIndex, `The agent's model ${version?.modelId ?? '(none)'} is not available`);
  }
  const who = onBehalfOfRow(evalRun.workspaceId, evalRun, 'unrecorded');
  const draft = {
    agentId: evalRun.agentId,
    agentVersion: evalRun.agentVersion,
    input: testCase.input,
    metadata: { evalRunId, evalId: found.id, caseIndex },
  };
  let run: Run;
  try {
    run = await admitRun(
      em,
      deps.config,
      who,
      draft,
      usdToMicros(estimateRunCostUsd(model, testCase.input)),
      (tx, r) => {
        const result = new EvalResult(evalRunId, caseIndex);
        result.runId = r.id;
        tx.persist(result);
      },
    );
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) return createCaseRun(deps, evalRunId, caseIndex);
    if (err instanceof ApiError) return skip(em.fork(), evalRunId, caseIndex, `${err.code}: ${err.message}`);
    throw err;
  }
  return { kind: 'run', runId: run.id };
}

/** Records a case that got no run as failed, with why; a concurrent record of it wins. */
async function skip(em: EntityManager, evalRunId: string, caseIndex: number, detail: string): Promise<CaseStart> {
  const result = new EvalResult(evalRunId, caseIndex);
  Object.assign(result, { passed: false, score: 0, detail });
  try {
    await em.persist(result).flush();
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
  }
  return { kind: 'skipped' };
}
