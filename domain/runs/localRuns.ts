import type { EntityManager } from '@mikro-orm/postgresql';
import { Run } from '../../db/entities/Run';
import type { RunError } from '../../workflows/messages';
import type { Identity } from '../identity/identity';
import { appendRunEvent } from './events';
import { findRunnableAgent } from './find';
import { serializeRun } from './presenters';

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
 * with their status events, in one transaction: a batch is stored whole or not at all. Their webhooks
 * are the caller's to announce (announceRuns), like any run's.
 */
export async function recordLocalRuns(
  em: EntityManager,
  identity: Identity,
  agentId: string,
  reports: LocalRunReport[],
): Promise<Run[]> {
  const agent = await findRunnableAgent(em, identity.workspaceId, agentId);
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
    run.announcePending = true;
    return run;
  });
  await em.transactional(async (tx) => {
    tx.persist(rows);
    await tx.flush();
    for (const run of rows) await appendRunEvent(tx, run.id, 'run.status', serializeRun(run));
  });
  return rows;
}
