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

/** The columns of a run row that its view is made of, as `select` names them (RUN_VIEW_COLUMNS). */
export interface RunViewRow {
  id: string;
  agent_id: string;
  agent_version: number;
  status: RunStatus;
  input: Record<string, unknown>;
  output: unknown;
  error: RunError | null;
  pending_action: PendingAction | null;
  input_tokens: number;
  output_tokens: number;
  cost_micros: number;
  metadata: Record<string, unknown>;
  /** Timestamps as the driver gives them: PostgreSQL's text, or a Date. */
  created_at: string | Date;
  updated_at: string | Date;
  started_at: string | Date | null;
  completed_at: string | Date | null;
}

/** What a run view reads of the row `a`, for {@link presentRunRow}: the money as a number, not bigint text. */
export const runViewColumns = (a: string) =>
  `${a}.id, ${a}.agent_id, ${a}.agent_version, ${a}.status, ${a}.input, ${a}.output, ${a}.error, ${a}.pending_action,
   ${a}.input_tokens, ${a}.output_tokens, ${a}.cost_micros::float8 as cost_micros, ${a}.metadata,
   ${a}.created_at, ${a}.updated_at, ${a}.started_at, ${a}.completed_at`;

const iso = (t: string | Date) => new Date(t).toISOString();

/** The run view of a plain row (no entity hydrated): `GET /v1/runs/{id}` reads these (find.ts). */
export function presentRunRow(row: RunViewRow): RunView {
  return presentRun({
    id: row.id,
    agentId: row.agent_id,
    agentVersion: row.agent_version,
    status: row.status,
    input: row.input,
    output: row.output,
    error: row.error,
    pendingAction: row.pending_action,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    costMicros: row.cost_micros,
    metadata: row.metadata,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    startedAt: row.started_at === null ? null : iso(row.started_at),
    completedAt: row.completed_at === null ? null : iso(row.completed_at),
  });
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
