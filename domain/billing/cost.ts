import type { EntityManager } from '@mikro-orm/postgresql';
import type { Run } from '../../db/entities/Run';
import type { ModelRegistry } from '../models/registry';
import type { ModelPricing } from '../models/types';
import { findVersionDefinition } from '../agents/versionCache';

/** A model no longer offered costs nothing: its runs are still settled, at 0. */
const FREE: ModelPricing = { perRunUsd: 0, inputPerMTokUsd: 0, outputPerMTokUsd: 0 };

/** The pricing of the model of the run's agent version. */
export async function runPricing(
  em: EntityManager,
  models: ModelRegistry,
  run: Pick<Run, 'agentId' | 'agentVersion'>,
): Promise<ModelPricing> {
  const version = await findVersionDefinition(em, run.agentId, run.agentVersion);
  if (!version) throw new Error(`agent version ${run.agentId}@${run.agentVersion} missing`);
  return models.get(version.modelId)?.pricing ?? FREE;
}

/**
 * What a run costs in micro-USD (docs/api/billing.md#what-a-run-is-charged): the per-run price once it
 * started, and its tokens at the model's prices per million.
 */
export function costMicros(
  pricing: ModelPricing,
  started: boolean,
  tokens: { inputTokens: number; outputTokens: number },
): number {
  const perRun = started ? pricing.perRunUsd : 0;
  return Math.round(
    (perRun + (tokens.inputTokens * pricing.inputPerMTokUsd + tokens.outputTokens * pricing.outputPerMTokUsd) / 1e6) *
      1e6,
  );
}
