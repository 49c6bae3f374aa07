/**
 * What a local runner reads and reports: an agent's definition, and the runs it executed itself
 * (docs/api/runs.md#local-runs, docs/api/agents.md).
 */
import type { AgentSettings, JsonObject, JsonValue, RunError } from './types.js';

/** A saved table the agent links, with the read that fills it (`savedTables.create`'s `read`). */
export interface SavedRead {
  savedTableId: string;
  name: string;
  read: Record<string, unknown>;
}

/** What a runner needs to execute an agent at its current version. */
export interface AgentDefinition {
  id: string;
  name: string;
  version: number;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
  /** Present only for a key that also holds `runner:run`. */
  instructions?: string | null;
  /** Present only for a key that also holds `runner:run`. */
  savedReads?: SavedRead[];
}

/** One run a local runner executed: finished, with its own timestamps (ISO-8601, `startedAt` ≤ `completedAt`). */
export interface LocalRun {
  input?: JsonObject;
  status: 'succeeded' | 'failed';
  output?: JsonValue;
  error?: RunError | null;
  startedAt: string;
  completedAt: string;
  usage?: { inputTokens: number; outputTokens: number };
}

/** Body of `localRuns.report`: 1..100 runs of one agent, recorded whole or not at all. */
export interface LocalRunReportParams {
  agentId: string;
  runs: LocalRun[];
}

/** One recorded run of a report, in the order reported. */
export interface RecordedLocalRun {
  id: string;
  status: 'succeeded' | 'failed';
}

/** `localRuns.report`'s answer: the batch the runs form (`runs.localBatch(batchId)`) and the runs' ids. */
export interface LocalRunReport {
  batchId: string;
  runs: RecordedLocalRun[];
}
