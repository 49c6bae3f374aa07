import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import { findAgent } from '../agents/find';
import { findVersionDefinition } from '../agents/versionCache';
import { usdToMicros } from '../shared/money';
import { errors } from '../errors';
import { estimateRunCostUsd, type ModelRegistry } from '../models/registry';
import { admitRun, type GateConfig, type OnBehalfOf } from './runGate';

export interface ChildRunRequest {
  /** The key or user the run is made for (its workspace pays), kept on the parent's row (docs/api/billing.md#who-pays). */
  onBehalfOf: OnBehalfOf;
  agentId: string;
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** One run per key in the workspace: a retried caller gets the run its first attempt made. */
  key: string;
}

/**
 * Creates a run that a workflow starts itself as its child (a flow's agent step, a conversation turn), so
 * no outbox start is written: the parent's start of `run-<id>` is the durable one. The run is created like
 * any other (docs/api/runs.md): a live agent of the workspace, its model available, then the gate
 * (runGate.ts) on behalf of `req.onBehalfOf`: the unverified limit, the key's spend cap and the credit hold,
 * in the transaction that inserts it with its first event. Throws `not_found` (agent), `validation_error`
 * (model), `auth.email_verification_required`, `billing.spend_cap_exceeded`, `billing.insufficient_credits`.
 */
export async function createChildRun(
  em: EntityManager,
  models: ModelRegistry,
  config: GateConfig,
  req: ChildRunRequest,
): Promise<Run> {
  const { workspaceId } = req.onBehalfOf;
  const prior = await em.findOne(Run, { workspaceId, idempotencyKey: req.key });
  if (prior) return prior;
  const agent = await findAgent(em, workspaceId, req.agentId);
  const version = await findVersionDefinition(em, agent.id, agent.currentVersion);
  if (!version) throw new Error(`agent version ${agent.id}@${agent.currentVersion} missing`);
  const model = models.get(version.modelId);
  if (!model) {
    throw errors.validation([{ path: 'agentId', message: `The agent's model ${version.modelId} is not available` }]);
  }
  const draft = {
    agentId: agent.id,
    agentVersion: agent.currentVersion,
    input: req.input,
    metadata: req.metadata,
    idempotencyKey: req.key,
  };
  try {
    return await admitRun(em, config, req.onBehalfOf, draft, usdToMicros(estimateRunCostUsd(model, req.input)));
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      const made = await em.fork().findOne(Run, { workspaceId, idempotencyKey: req.key });
      if (made) return made;
    }
    throw err;
  }
}
