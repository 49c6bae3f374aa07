import type { AgentForRun } from './find';

/**
 * An API process's memory of what a new run of an agent needs (its current version and that version's
 * model), so a create needs no round trip to read the agent. Never trusted on its own: the statement that
 * inserts the run admits it only while the agent is still live at the remembered version
 * (domain/runs/insertRun.ts), and a create whose entry is stale reads the agent afresh and tries again
 * (domain/runs/create.ts). So an agent changed or deleted through another replica is never run at its old
 * version, with no invalidation to miss. A version never changes once written, so its model is safe to
 * remember with it. Bounded: the oldest entry leaves when the cache is full.
 */
export class AgentCache {
  private readonly agents = new Map<string, AgentForRun>();

  constructor(private readonly maxEntries = 10_000) {}

  get(workspaceId: string, agentId: string): AgentForRun | undefined {
    return this.agents.get(cacheKey(workspaceId, agentId));
  }

  remember(workspaceId: string, agent: AgentForRun): void {
    const key = cacheKey(workspaceId, agent.agentId);
    if (this.agents.size >= this.maxEntries && !this.agents.has(key)) {
      const oldest = this.agents.keys().next();
      if (!oldest.done) this.agents.delete(oldest.value);
    }
    this.agents.set(key, agent);
  }

  forget(workspaceId: string, agentId: string): void {
    this.agents.delete(cacheKey(workspaceId, agentId));
  }
}

function cacheKey(workspaceId: string, agentId: string): string {
  return `${workspaceId}/${agentId}`;
}
