import type { EntityManager } from '@mikro-orm/postgresql';
import { AgentVersion } from '../../db/entities/Agent';
import { EvalResult, EvalRun } from '../../db/entities/EvalRun';
import { findAgent } from '../agents/find';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { enqueue, relayOrUndo, type RelayDeps } from '../shared/outbox/relay';
import { findPage } from '../shared/pagination';
import { findEval, findEvalRun } from './find';
import { presentEvalRun, type EvalRunView } from './presenters';

/**
 * Starts a run of an eval against `version` of its agent (the current one when absent): the eval run row
 * and the start of its workflow commit together through the outbox (docs/architecture.md), and the
 * request makes the start itself at once. Throws `not_found` for an unknown eval or a deleted agent,
 * `validation_error` (path `version`) for a version the agent does not have, `unavailable` when Temporal
 * does not take the start in time (nothing is left behind then).
 */
export async function startEvalRun(
  deps: RelayDeps,
  em: EntityManager,
  identity: Identity,
  evalId: string,
  input: { version?: number },
): Promise<EvalRunView> {
  const found = await findEval(em, identity.workspaceId, evalId);
  const agent = await findAgent(em, identity.workspaceId, found.agentId);
  const version = input.version ?? agent.currentVersion;
  if (!(await em.count(AgentVersion, { agent: agent.id, version }))) {
    throw errors.validation([{ path: 'version', message: `The agent has no version ${version}` }]);
  }
  const run = new EvalRun(identity.workspaceId, found.id, agent.id, version, found.cases.length);
  if (identity.actor === 'api_key') run.apiKeyId = identity.keyId;
  else run.userId = identity.userId;
  const start = await em.transactional(async (tx) => {
    tx.persist(run);
    return enqueue(
      tx,
      {
        kind: 'start_eval',
        evalRunId: run.id,
        workspaceId: run.workspaceId,
        agentId: run.agentId,
        taskQueue: deps.config.temporal.taskQueue,
      },
      { held: true },
    );
  });
  await relayOrUndo(deps, em, start, (tx) => tx.nativeDelete(EvalRun, { id: run.id }));
  return presentEvalRun(run, []);
}

/** One page of an eval's runs, newest first, each with its scored cases. Throws `not_found`. */
export async function listEvalRuns(
  em: EntityManager,
  identity: Identity,
  evalId: string,
  page: { limit: number; cursor?: string },
): Promise<{ evalRuns: EvalRunView[]; nextCursor: string | null }> {
  const found = await findEval(em, identity.workspaceId, evalId);
  const { items, nextCursor } = await findPage(em, EvalRun, { evalId: found.id }, page);
  const results = items.length ? await em.find(EvalResult, { evalRunId: { $in: items.map((r) => r.id) } }) : [];
  return {
    evalRuns: items.map((r) =>
      presentEvalRun(
        r,
        results.filter((x) => x.evalRunId === r.id),
      ),
    ),
    nextCursor,
  };
}

/** An eval run with its scored cases. Throws `not_found`. */
export async function getEvalRun(em: EntityManager, identity: Identity, id: string): Promise<EvalRunView> {
  const run = await findEvalRun(em, identity.workspaceId, id);
  return presentEvalRun(run, await em.find(EvalResult, { evalRunId: run.id }));
}
