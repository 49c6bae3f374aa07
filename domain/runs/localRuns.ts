import type { EntityManager } from '@mikro-orm/postgresql';
import { LocalRunBatch } from '../../db/entities/LocalRunBatch';
import type { Run } from '../../db/entities/Run';
import { onBehalfOfCaller, recordReportedRuns, type GateConfig } from './runGate';
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
 * They pass the gate (runGate.ts): an unverified account's runs count, the batch included (403 past the limit).
 */
export async function recordLocalRuns(
  em: EntityManager,
  identity: Identity,
  agentId: string,
  reports: LocalRunReport[],
  taskQueue: string,
  config: GateConfig,
): Promise<{ batch: LocalRunBatch; runs: Run[]; announcements: OutboxEntry[] }> {
  const agent = await findAgent(em, identity.workspaceId, agentId);
  const drafts = reports.map((r) => ({
    draft: { agentId: agent.id, agentVersion: agent.currentVersion, input: r.input, metadata: {} },
    fill: (run: Run) => {
      run.status = r.status;
      run.output = r.status === 'succeeded' ? (r.output ?? null) : null;
      run.error =
        r.status === 'failed' ? (r.error ?? { code: 'agent.local_error', message: 'The local run failed' }) : null;
      run.startedAt = new Date(r.startedAt);
      run.completedAt = new Date(r.completedAt);
      run.inputTokens = r.usage?.inputTokens ?? 0;
      run.outputTokens = r.usage?.outputTokens ?? 0;
    },
  }));
  const announcements: OutboxEntry[] = [];
  let batch: LocalRunBatch | undefined;
  const rows = await recordReportedRuns(em, config, onBehalfOfCaller(identity), drafts, async (tx, runs) => {
    batch = new LocalRunBatch(
      identity.workspaceId,
      agent.id,
      runs.map((r) => r.id),
    );
    tx.persist(batch);
    for (const run of runs) {
      await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
      announcements.push(enqueue(tx, { kind: 'announce_run', run: announcedRun(run), taskQueue }, { held: true }));
    }
  });
  return { batch: batch!, runs: rows, announcements };
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
