import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AgentVersion } from '../../db/entities/Agent';
import { LedgerEntry } from '../../db/entities/LedgerEntry';
import type { Run } from '../../db/entities/Run';
import { Workspace } from '../../db/entities/Workspace';
import type { ModelRegistry } from '../models/registry';

/**
 * Charges a run when it ends, inside the caller's transaction: the per-run price once the run started,
 * and its tokens as used (docs/api/billing.md), as one ledger row. The ledger's unique run id makes a
 * repeated call charge nothing more. Sets `run.costMicros`; the caller flushes.
 */
export async function chargeRun(em: EntityManager, models: ModelRegistry, run: Run): Promise<void> {
  if ((await em.count(LedgerEntry, { runId: run.id })) > 0) return;
  const version = await em.findOneOrFail(AgentVersion, { agent: run.agentId, version: run.agentVersion });
  const pricing = models.get(version.modelId)?.pricing ?? { perRunUsd: 0, inputPerMTokUsd: 0, outputPerMTokUsd: 0 };
  const perRun = run.startedAt ? pricing.perRunUsd : 0;
  const costMicros = Math.round(
    (perRun + (run.inputTokens * pricing.inputPerMTokUsd + run.outputTokens * pricing.outputPerMTokUsd) / 1e6) * 1e6,
  );
  run.costMicros = costMicros;
  const workspace = await em.findOneOrFail(Workspace, run.workspaceId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  workspace.creditBalanceMicros -= costMicros;
  const entry = new LedgerEntry(workspace, 'charge', -costMicros, `Run ${run.id}`);
  entry.runId = run.id;
  entry.apiKeyId = run.apiKeyId;
  em.persist(entry);
}
