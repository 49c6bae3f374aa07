import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AgentVersion } from '../../db/entities/Agent';
import { File } from '../../db/entities/File';
import { Run } from '../../db/entities/Run';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';
import { checkRunAllowed } from '../billing/runChecks';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import type { ModelRegistry } from '../models/registry';
import { appendRunEvent } from './events';
import { findRunnableAgent } from './find';
import { serializeRun } from './presenters';
import { ensureRunWorkflow, requestHash, startRunWorkflow } from './workflowStarter';

/** An Idempotency-Key is honoured for 24 hours (docs/api/limits.md). */
const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CreateRunDeps {
  config: Config;
  temporal: Temporal;
  models: ModelRegistry;
}

export interface CreateRunRequest {
  agentId: string;
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** `created` is false when the answer replays an earlier create with the same Idempotency-Key (200, not 201). */
export interface CreateRunResult {
  run: Run;
  created: boolean;
}

/**
 * Creates a run and starts its workflow. The checks run in the order of docs/api/runs.md: idempotency
 * replay, agent, files, model, then the billing checks (unverified-session limit, key spend cap,
 * credits). Throws `unavailable` when Temporal cannot take the run; the run then ends `failed` and its
 * Idempotency-Key is free again.
 */
export async function createRun(
  deps: CreateRunDeps,
  em: EntityManager,
  identity: Identity,
  body: CreateRunRequest,
  key: string | null,
): Promise<CreateRunResult> {
  if (key && key.length > 255)
    throw errors.validation([{ path: 'Idempotency-Key', message: 'At most 255 characters' }]);
  const hash = requestHash(body);
  if (key) {
    const prior = await replay(deps, em, identity.workspaceId, key, hash);
    if (prior) return { run: prior, created: false };
  }

  const agent = await findRunnableAgent(em, identity.workspaceId, body.agentId);
  await checkFiles(em, identity.workspaceId, (body.input.fileIds as string[] | undefined) ?? []);
  const version = await em.findOneOrFail(AgentVersion, { agent, version: agent.currentVersion });
  const model = deps.models.get(version.modelId);
  if (!model) {
    throw errors.validation([{ path: 'agentId', message: `The agent's model ${version.modelId} is not available` }]);
  }
  await checkRunAllowed(em, identity, model, body.input, deps.config);

  const run = new Run(identity.workspaceId, agent.id, agent.currentVersion, body.input, body.metadata);
  run.idempotencyKey = key;
  run.requestHash = hash;
  if (identity.actor === 'api_key') run.apiKeyId = identity.keyId;
  else run.userId = identity.userId;
  try {
    await em.transactional(async (tx) => {
      tx.persist(run);
      await tx.flush();
      await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
    });
  } catch (err) {
    // Two concurrent creates with one key: the loser answers with the winner's run.
    if (key && err instanceof UniqueConstraintViolationException) {
      const prior = await replay(deps, em, identity.workspaceId, key, hash);
      if (prior) return { run: prior, created: false };
    }
    throw err;
  }
  // The row is committed first, so the workflow always finds it: a run is never left queued.
  try {
    await deps.temporal.call(() => startRunWorkflow(deps.temporal.client, deps.config.temporal, run));
  } catch {
    // The caller gets 503 and no run: the row ends `failed` with its final event (so a stream or a
    // wait on it ends) and gives its Idempotency-Key back, so the caller's retry creates the run.
    // Its `run.failed` webhook needs Temporal too: the recovery sweep announces it.
    const patch = {
      status: 'failed' as const,
      error: { code: 'unavailable', message: 'The run could not be started' },
      completedAt: new Date(),
      idempotencyKey: null,
      announcePending: true,
    };
    Object.assign(run, patch);
    await em.transactional(async (tx) => {
      await tx.nativeUpdate(Run, { id: run.id }, patch);
      await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
    });
    throw errors.unavailable('Temporal');
  }
  return { run, created: true };
}

/** The run an earlier create with this key made, or null; a different body under the key is 409. */
async function replay(
  deps: CreateRunDeps,
  em: EntityManager,
  workspaceId: string,
  key: string,
  hash: string,
): Promise<Run | null> {
  const prior = await em.findOne(Run, { workspaceId, idempotencyKey: key });
  if (!prior) return null;
  if (prior.requestHash !== hash || Date.now() - prior.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS) {
    throw errors.conflict('This Idempotency-Key was already used with a different request');
  }
  // The first request may have died between committing the run and starting its workflow (a killed
  // API process): the replay finishes its job, so a retried create never leaves a run in `queued`.
  if (prior.status === 'queued' && prior.origin === 'temporal') {
    await deps.temporal
      .call(() => ensureRunWorkflow(deps.temporal.client, deps.config.temporal, prior))
      .catch(() => {
        throw errors.unavailable('Temporal');
      });
  }
  return prior;
}

/** Every `input.fileIds` entry must name a file of the workspace (400 with the failing indexes). */
async function checkFiles(em: EntityManager, workspaceId: string, fileIds: string[]): Promise<void> {
  if (fileIds.length === 0) return;
  const wanted = [...new Set(fileIds.filter((id) => UUID.test(id)))];
  const rows = wanted.length
    ? await em.find(File, { id: { $in: wanted }, workspace: workspaceId }, { fields: ['id'] })
    : [];
  const found = new Set(rows.map((row) => row.id));
  const missing = fileIds.map((id, i) => ({ id, i })).filter(({ id }) => !found.has(id));
  if (missing.length) {
    throw errors.validation(
      missing.map(({ i }) => ({ path: `input.fileIds.${i}`, message: 'No such file in this workspace' })),
    );
  }
}
