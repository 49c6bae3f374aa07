import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AgentVersion } from '../../db/entities/Agent';
import { Eval } from '../../db/entities/Eval';
import { EvalResult, EvalRun } from '../../db/entities/EvalRun';
import { Run } from '../../db/entities/Run';
import { User } from '../../db/entities/User';
import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import type { CaseStart } from '../../workflows/evalMessages';
import { checkRunAllowed } from '../billing/runChecks';
import { ApiError } from '../errors';
import type { Identity } from '../identity/identity';
import type { ModelRegistry } from '../models/registry';
import { appendRunEvent } from '../runs/events';
import { serializeRun } from '../runs/presenters';

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
  const run = new Run(evalRun.workspaceId, evalRun.agentId, evalRun.agentVersion, testCase.input, {
    evalRunId,
    evalId: found.id,
    caseIndex,
  });
  run.apiKeyId = evalRun.apiKeyId;
  run.userId = evalRun.userId;
  const result = new EvalResult(evalRunId, caseIndex);
  result.runId = run.id;
  const identity = await starterIdentity(em, evalRun);
  try {
    await em.transactional(async (tx) => {
      await checkRunAllowed(tx, identity, model, testCase.input, deps.config, run);
      tx.persist([run, result]);
      await tx.flush();
      await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
    });
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

/**
 * The caller who started the eval run, as the run checks see a caller (docs/api/billing.md): they read the
 * actor, its ids and whether a session's e-mail is verified; plan, role and scopes play no part there.
 */
async function starterIdentity(em: EntityManager, evalRun: EvalRun): Promise<Identity> {
  if (evalRun.apiKeyId) {
    return {
      actor: 'api_key',
      workspaceId: evalRun.workspaceId,
      keyId: evalRun.apiKeyId,
      scopes: [],
      plan: 'free_trial',
    };
  }
  const user = evalRun.userId ? await em.findOne(User, evalRun.userId) : null;
  return {
    actor: 'session',
    workspaceId: evalRun.workspaceId,
    userId: evalRun.userId ?? '',
    role: 'member',
    sessionId: '',
    emailVerified: !!user?.emailVerifiedAt,
    plan: 'free_trial',
  };
}
