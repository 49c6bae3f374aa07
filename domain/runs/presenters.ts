import type { Run } from '../../db/entities/Run';
import type { RunStep } from '../../db/entities/RunStep';
import type { PendingAction, RunError, RunStatus } from '../../workflows/messages';
import { microsToUsd } from '../shared/money';

/** The run as callers see it (API, event stream); the OpenAPI schema in api/schemas/runs.ts matches it. */
export interface RunView {
  id: string;
  agentId: string;
  agentVersion: number;
  status: RunStatus;
  input: Record<string, unknown>;
  output: unknown;
  error: RunError | null;
  pendingAction: PendingAction | null;
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface StepView {
  index: number;
  type: string;
  status: string;
  detail: Record<string, unknown>;
  startedAt: string;
  completedAt: string | null;
}

/** What a run view is made of, whether read into an entity or straight from its row. */
export interface RunFields {
  id: string;
  agentId: string;
  agentVersion: number;
  status: RunStatus;
  input: Record<string, unknown>;
  output?: unknown;
  error?: RunError | null;
  pendingAction?: PendingAction | null;
  inputTokens: number;
  outputTokens: number;
  costMicros: number;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** The run view from its fields, timestamps already written as ISO strings. */
export function presentRun(f: RunFields): RunView {
  return {
    id: f.id,
    agentId: f.agentId,
    agentVersion: f.agentVersion,
    status: f.status,
    input: f.input,
    output: f.output ?? null,
    error: f.error ?? null,
    pendingAction: f.pendingAction ?? null,
    usage: { inputTokens: f.inputTokens, outputTokens: f.outputTokens, costUsd: microsToUsd(f.costMicros) },
    metadata: f.metadata,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    startedAt: f.startedAt,
    completedAt: f.completedAt,
  };
}

/** The run object (docs/api/runs.md), used by the API and the event stream alike. */
export function serializeRun(run: Run): RunView {
  return presentRun({
    ...run,
    createdAt: run.createdAt.toISOString(),
    updatedAt: run.updatedAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    completedAt: run.completedAt?.toISOString() ?? null,
  });
}

export function serializeStep(step: RunStep): StepView {
  return {
    index: step.index,
    type: step.type,
    status: step.status,
    detail: step.detail,
    startedAt: step.startedAt.toISOString(),
    completedAt: step.completedAt?.toISOString() ?? null,
  };
}
