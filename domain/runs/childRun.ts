import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { findAgent } from '../agents/find';
import { findVersionDefinition } from '../agents/versionCache';
import { usdToMicros } from '../shared/money';
import { holdForCreate } from '../billing/holds';
import { errors } from '../errors';
import { estimateRunCostUsd, type ModelRegistry } from '../models/registry';
import { appendRunEvent } from './events';
import { serializeRun } from './presenters';

export interface ChildRunRequest {
  workspaceId: string;
  agentId: string;
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** One run per key in the workspace: a retried caller gets the run its first attempt made. */
  key: string;
}

/**
 * Creates a run that a workflow starts itself as its child (a flow's agent step), so no outbox start
 * is written: the parent's start of `run-<id>` is the durable one. The run is created like any other
 * (docs/api/runs.md): a live agent of the workspace, its model available, the credits held in the
 * transaction that inserts it, its first event. The workspace pays; no key or user is charged, so no
 * spend cap or unverified limit applies. Throws `not_found` (agent), `validation_error` (model),
 * `billing.insufficient_credits`.
 */
export async function createChildRun(em: EntityManager, models: ModelRegistry, req: ChildRunRequest): Promise<Run> {
  const prior = await em.findOne(Run, { workspaceId: req.workspaceId, idempotencyKey: req.key });
  if (prior) return prior;
  const agent = await findAgent(em, req.workspaceId, req.agentId);
  const version = await findVersionDefinition(em, agent.id, agent.currentVersion);
  if (!version) throw new Error(`agent version ${agent.id}@${agent.currentVersion} missing`);
  const model = models.get(version.modelId);
  if (!model) {
    throw errors.validation([{ path: 'agentId', message: `The agent's model ${version.modelId} is not available` }]);
  }
  const run = new Run(req.workspaceId, agent.id, agent.currentVersion, req.input, req.metadata);
  run.idempotencyKey = req.key;
  try {
    await em.transactional(async (tx) => {
      await holdForCreate(tx, run, usdToMicros(estimateRunCostUsd(model, req.input)));
      tx.persist(run);
      await tx.flush();
      await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      const made = await em.fork().findOne(Run, { workspaceId: req.workspaceId, idempotencyKey: req.key });
      if (made) return made;
    }
    throw err;
  }
  return run;
}
