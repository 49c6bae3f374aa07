import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxCall, OutboxEntry } from '../../db/entities/OutboxEntry';
import { Run } from '../../db/entities/Run';
import { enqueue, outboxEntry, relayNow, relayPendingOfRun, withdraw } from '../shared/outbox/relay';
import type { Config } from '../../platform/config';
import type { Temporal } from '../../platform/temporal';
import { settleRun } from '../billing/charge';
import { usdToMicros } from '../shared/money';
import { estimateRunCostUsd } from '../models/registry';
import { ApiError, errors } from '../errors';
import { findWorkspaceFiles } from '../files/files';
import type { RunCreator } from '../identity/identity';
import type { ModelRegistry } from '../models/registry';
import { appendRunEvent } from './events';
import { findAgentForRun, type AgentForRun } from '../agents/find';
import type { AgentCache } from '../agents/agentCache';
import { insertRun, type WithRun } from './insertRun';
import { requestHash } from '../shared/idempotency/fingerprint';
import { announcedRun } from '../webhooks/dispatch';
import { serializeRun } from './presenters';

/** An Idempotency-Key is honoured for 24 hours (docs/api/limits.md). */
const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export interface CreateRunDeps {
  config: Config;
  temporal: Temporal;
  models: ModelRegistry;
  /** What this process remembers of agents (API processes); without it every create reads the agent. */
  agents?: AgentCache;
}

export interface CreateRunRequest {
  agentId: string;
  input: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export type { WithRun } from './insertRun';

/** What an app's public submission adds to a run: rows of its transaction and the files they insert. */
export interface RunExtras {
  withRun?: WithRun;
  /**
   * Entries of `input.fileIds` that `withRun` inserts in the run's own transaction (an app's uploads): not
   * looked up beforehand, since they do not exist until it commits.
   */
  insertedFileIds?: ReadonlySet<string>;
  /**
   * What a replay under the key compares, when not the body: an app submission's values and files (its body
   * names file ids made for each request, which two sendings of one submission never share).
   */
  requestHash?: string;
}

/** `created` is false when the answer replays an earlier create with the same Idempotency-Key (200, not 201). */
export interface CreateRunResult {
  run: Run;
  created: boolean;
  /** A run created now, as `serializeRun` shows it, in JSON (the text of its first event). */
  shown?: string;
}

/**
 * Creates a run and starts its workflow through the outbox (domain/shared/outbox/relay.ts). The checks run
 * in the order of docs/api/runs.md: idempotency replay, agent, files, model, then the billing checks
 * (unverified-session limit, key spend cap, credits). Throws `unavailable` when Temporal cannot take
 * the run within the request's deadline; the run then ends `failed` and its Idempotency-Key is free.
 */
export async function createRun(
  deps: CreateRunDeps,
  em: EntityManager,
  identity: RunCreator,
  body: CreateRunRequest,
  key: string | null,
  extras: RunExtras = {},
): Promise<CreateRunResult> {
  if (key && key.length > 255)
    throw errors.validation([{ path: 'Idempotency-Key', message: 'At most 255 characters' }]);
  // Only a replay compares it: a create without a key has nothing to compare it with.
  const hash = key ? (extras.requestHash ?? requestHash(body)) : null;
  if (key) {
    const prior = await replay(deps, em, identity.workspaceId, key, hash!);
    if (prior) return { run: prior, created: false };
  }

  const cached = deps.agents?.get(identity.workspaceId, body.agentId);
  if (cached) {
    // The remembered version is checked by the insert itself; a stale one is forgotten and read afresh.
    const made = await insertFor(deps, em, identity, body, key, hash, extras, cached, true).catch((err) => {
      // A refusal before the insert (a file, the model) is the live agent's to give, or its 404.
      if (err instanceof ApiError && err.code === 'validation_error') return null;
      throw err;
    });
    if (made) return made;
    deps.agents!.forget(identity.workspaceId, body.agentId);
  }
  const agent = await findAgentForRun(em, identity.workspaceId, body.agentId);
  deps.agents?.remember(identity.workspaceId, agent);
  return (await insertFor(deps, em, identity, body, key, hash, extras, agent, false))!;
}

/**
 * The checks after the agent's and the insert, for `agent` as read or remembered (`remembered`: the insert
 * admits the run only while the agent is still live at that version). Null when it is not.
 */
async function insertFor(
  deps: CreateRunDeps,
  em: EntityManager,
  identity: RunCreator,
  body: CreateRunRequest,
  key: string | null,
  hash: string | null,
  { withRun, insertedFileIds }: RunExtras,
  agent: AgentForRun,
  remembered: boolean,
): Promise<CreateRunResult | null> {
  const fileIds = (body.input.fileIds as string[] | undefined) ?? [];
  await checkFiles(em, identity.workspaceId, fileIds, insertedFileIds);
  const model = deps.models.get(agent.modelId);
  if (!model) {
    throw errors.validation([{ path: 'agentId', message: `The agent's model ${agent.modelId} is not available` }]);
  }

  const draft = {
    agentId: agent.agentId,
    agentVersion: agent.version,
    input: body.input,
    metadata: body.metadata,
    idempotencyKey: key,
    requestHash: hash,
  };
  const required = usdToMicros(estimateRunCostUsd(model, body.input));
  let made: Awaited<ReturnType<typeof insertRun>>;
  try {
    made = await insertRun(em, identity, deps.config, draft, (run) => startCall(deps, run), required, {
      withRun,
      checkAgent: remembered,
    });
  } catch (err) {
    // Two concurrent creates with one key: the loser answers with the winner's run.
    if (key && err instanceof UniqueConstraintViolationException) {
      const prior = await replay(deps, em, identity.workspaceId, key, hash!);
      if (prior) return { run: prior, created: false };
    }
    throw err;
  }
  if (!made) return null;
  const { run, start, shown } = made;
  try {
    await relayNow(deps, em, start);
  } catch {
    if (await giveUp(deps, em, run, start)) throw errors.unavailable('Temporal');
  }
  return { run, created: true, shown };
}

function startCall(deps: CreateRunDeps, run: Run): OutboxCall {
  return {
    kind: 'start_run',
    runId: run.id,
    workspaceId: run.workspaceId,
    agentId: run.agentId,
    taskQueue: deps.config.temporal.taskQueue,
  };
}

/**
 * Temporal did not take the start in time. The caller gets 503 and no run: the start is withdrawn, the
 * row ends `failed` with its final event (so a stream or a wait on it ends), its hold goes back to the
 * balance, its Idempotency-Key is free again for the caller's retry, and its `run.failed` announcement
 * waits in the outbox. Should the
 * start have reached Temporal after all, the workflow finds the run failed and does not execute it.
 * False when the start was made after all (by the sweep, or late): the run goes on.
 */
async function giveUp(deps: CreateRunDeps, em: EntityManager, run: Run, start: OutboxEntry): Promise<boolean> {
  const patch = {
    status: 'failed' as const,
    error: { code: 'unavailable', message: 'The run could not be started' },
    completedAt: new Date(),
    idempotencyKey: null,
  };
  try {
    await em.transactional(async (tx) => {
      if (!(await withdraw(tx, start.id))) throw new StartWentThrough();
      // A start that reached Temporal despite the deadline may have moved the run on already.
      if ((await tx.nativeUpdate(Run, { id: run.id, status: 'queued' }, patch)) === 0) throw new StartWentThrough();
      const row = await tx.findOneOrFail(Run, run.id, { refresh: true });
      await settleRun(tx, deps.models, row);
      await tx.flush();
      Object.assign(run, patch, { costMicros: row.costMicros, heldMicros: row.heldMicros });
      await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
      enqueue(tx, { kind: 'announce_run', run: announcedRun(run), taskQueue: deps.config.temporal.taskQueue });
    });
    return true;
  } catch (err) {
    if (err instanceof StartWentThrough) return false;
    throw err;
  }
}

/** Rolls giveUp back: the start was made after all, and the run goes on. */
class StartWentThrough extends Error {}

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
  if (Date.now() - prior.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS) {
    // Past its window the key is free again: the old run lets go of it (the unique index would not).
    await em.nativeUpdate(Run, { id: prior.id, idempotencyKey: key }, { idempotencyKey: null });
    return null;
  }
  if (prior.requestHash !== hash) {
    throw errors.conflict('This Idempotency-Key was already used with a different request');
  }
  // The first request may have died between its commit and the start of the workflow (a killed API
  // process): the replay makes the start now rather than leaving it to the sweep.
  if (prior.status === 'queued' && prior.origin === 'temporal') {
    await relayPendingOfRun(deps, em, prior.id, 'start_run').catch(() => {
      throw errors.unavailable('Temporal');
    });
  }
  return prior;
}

/** Every `input.fileIds` entry must name a file of the workspace (400 with the failing indexes). */
async function checkFiles(
  em: EntityManager,
  workspaceId: string,
  fileIds: string[],
  inserted: ReadonlySet<string> = new Set(),
): Promise<void> {
  if (fileIds.length === 0) return;
  const found = new Set([...(await findWorkspaceFiles(em, workspaceId, fileIds)), ...inserted]);
  const missing = fileIds.map((id, i) => ({ id, i })).filter(({ id }) => !found.has(id));
  if (missing.length) {
    throw errors.validation(
      missing.map(({ i }) => ({ path: `input.fileIds.${i}`, message: 'No such file in this workspace' })),
    );
  }
}
