import type { EntityManager } from '@mikro-orm/postgresql';
import { AgentVersion, type AgentSettings } from '../../db/entities/Agent';

/** What a run executes from its agent version: the parts the worker reads on every step. */
export interface VersionDefinition {
  instructions: string | null;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
}

/**
 * Agent versions never change once written (an update or a restore inserts a new version:
 * domain/agents/agents.ts, versions.ts), so a process may keep what it read. A run reads its version at
 * its start, before every model turn and when it is settled; this keeps those reads to one per process.
 * Bounded: the oldest entries go first once it is full. Only found versions are kept.
 */
const LIMIT = 4096;
const cache = new Map<string, VersionDefinition>();

const keyOf = (agentId: string, version: number) => `${agentId}:${version}`;

/** The definition of version `version` of agent `agentId`, or null when there is no such version. */
export async function findVersionDefinition(
  em: EntityManager,
  agentId: string,
  version: number,
): Promise<VersionDefinition | null> {
  const key = keyOf(agentId, version);
  const kept = cache.get(key);
  if (kept) {
    // Refreshed: a version in use stays while idle ones are dropped.
    cache.delete(key);
    cache.set(key, kept);
    return kept;
  }
  const row = await em.findOne(AgentVersion, { agent: agentId, version });
  if (!row) return null;
  const found: VersionDefinition = {
    instructions: row.instructions,
    modelId: row.modelId,
    tools: row.tools,
    settings: row.settings,
  };
  cache.set(key, found);
  if (cache.size > LIMIT) cache.delete(cache.keys().next().value as string);
  return found;
}
