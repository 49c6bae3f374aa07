import type { EntityManager } from '@mikro-orm/postgresql';
import { LocalRunBatch } from '../../db/entities/LocalRunBatch';
import { Run } from '../../db/entities/Run';
import type { RunError } from '../../workflows/messages';
import type { Identity } from '../identity/identity';
import { appendRunEvent } from './events';
import { findAgent } from '../agents/find';
import { announcedRun } from '../webhooks/dispatch';
import { serializeRun } from './presenters';
import type { OutboxEntry } from '../../db/entities/OutboxEntry';
import { enqueue, release, relayNow, type RelayDeps } from '../shared/outbox/relay';

/** One run a local runner executed itself, as it reports it. */
export interface LocalRunReport {
  input: Record<string, unknown>;
  status: 'succeeded' | 'failed';
  output?: unknown;
  error?: RunError | null;
  startedAt: string;
  completedAt: string;
  usage?: { inputTokens: number; outputTokens: number };
}

/**
 * Records a batch of runs a local runner executed as finished runs of the agent's current version,
 * with their status events, their webhook announcements (outbox rows) and the batch that lists them, in one
 * transaction: a batch is stored whole or not at all. The caller makes the announcements (announceLocalRuns).
 */
export async function recordLocalRuns(
  em: EntityManager,
  identity: Identity,
  agentId: string,
  reports: LocalRunReport[],
  taskQueue: string,
): Promise<{ batch: LocalRunBatch; runs: Run[]; announcements: OutboxEntry[] }> {
  const agent = await findAgent(em, identity.workspaceId, agentId);
  const rows = reports.map((r) => {
    const run = new Run(identity.workspaceId, agent.id, agent.currentVersion, r.input, {});
    run.origin = 'local';
    run.status = r.status;
    run.output = r.status === 'succeeded' ? (r.output ?? null) : null;
    run.error =
      r.status === 'failed' ? (r.error ?? { code: 'agent.local_error', message: 'The local run failed' }) : null;
    run.startedAt = new Date(r.startedAt);
    run.completedAt = new Date(r.completedAt);
    run.inputTokens = r.usage?.inputTokens ?? 0;
    run.outputTokens = r.usage?.outputTokens ?? 0;
    if (identity.actor === 'api_key') run.apiKeyId = identity.keyId;
    else run.userId = identity.userId;
    return run;
  });
  const batch = new LocalRunBatch(
    identity.workspaceId,
    agent.id,
    rows.map((r) => r.id),
  );
  const announcements: OutboxEntry[] = [];
  await em.transactional(async (tx) => {
    tx.persist(rows);
    tx.persist(batch);
    await tx.flush();
    for (const run of rows) {
      await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
      announcements.push(enqueue(tx, { kind: 'announce_run', run: announcedRun(run), taskQueue }, { held: true }));
    }
  });
  return { batch, runs: rows, announcements };
}

/**
 * Makes the webhook announcements of recorded local runs now. Rejects when Temporal cannot take them;
 * those left are the outbox sweep's, so the batch stands either way.
 */
export async function announceLocalRuns(deps: RelayDeps, em: EntityManager, entries: OutboxEntry[]): Promise<void> {
  for (const [i, entry] of entries.entries()) {
    try {
      await relayNow(deps, em, entry);
    } catch (err) {
      await release(
        em,
        entries.slice(i).map((e) => e.id),
        err,
      );
      throw err;
    }
  }
}
