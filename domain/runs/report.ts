import type { EntityManager } from '@mikro-orm/postgresql';
import { RunStep } from '../../db/entities/RunStep';
import type { RunError, RunStatus } from '../../workflows/messages';
import { microsToUsd } from '../shared/money';
import { allRunArtifacts, type ArtifactView } from './artifacts';
import { findRun } from './find';
import { gateAnswerers, type GateAnswerer } from './gateAnswerers';

/** A gate of the timeline: what the run asked, the answer, who gave it and when. */
export interface ReportGate {
  actionId: string | null;
  /** the question (input), the tool call or output put to approval, the output put to review */
  asked: Record<string, unknown>;
  /** what the person sent (`{ answer }`, `{ approved, comment }`, `{ accept, correctedOutput }`); null while it waits */
  answer: unknown;
  /** null while the gate waits, and for gates answered by the service itself (an eval's cases) */
  answeredBy: GateAnswerer | null;
  answeredAt: string | null;
}

/** One step of the timeline: a model turn, a tool call or a gate. */
export interface ReportStep {
  index: number;
  type: string;
  status: string;
  startedAt: string;
  completedAt: string | null;
  tool?: string;
  error?: string;
  gate?: ReportGate;
}

/** `GET /v1/runs/{id}/report` (docs/api/runs.md#report): a run summarised for a person to read. */
export interface RunReport {
  run: {
    id: string;
    status: RunStatus;
    createdAt: string;
    startedAt: string | null;
    completedAt: string | null;
  };
  agent: { id: string; name: string | null; version: number };
  timeline: ReportStep[];
  output: unknown;
  error: RunError | null;
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  artifacts: ArtifactView[];
}

const GATES = new Set(['input', 'approval', 'review']);

/**
 * A run of the workspace as a report: its agent (by its current name; a deleted agent keeps it), the timeline of its steps with each
 * gate's answer and who gave it, its output or error, usage and cost, and the files it produced.
 * @throws `not_found`, also for a run of another workspace
 */
export async function runReport(em: EntityManager, workspaceId: string, runId: string): Promise<RunReport> {
  const run = await findRun(em, workspaceId, runId);
  const [agent] = await em
    .getConnection()
    .execute<Array<{ name: string }>>('select name from agents where id = ? and workspace_id = ?', [
      run.agentId,
      workspaceId,
    ]);
  const steps = await em.find(RunStep, { runId }, { orderBy: { index: 'asc' } });
  const answerers = await gateAnswerers(em, runId);
  return {
    run: {
      id: run.id,
      status: run.status,
      createdAt: run.createdAt.toISOString(),
      startedAt: run.startedAt?.toISOString() ?? null,
      completedAt: run.completedAt?.toISOString() ?? null,
    },
    agent: { id: run.agentId, name: agent?.name ?? null, version: run.agentVersion },
    timeline: steps.map((step) => reportStep(step, answerers)),
    output: run.output ?? null,
    error: run.error ?? null,
    usage: { inputTokens: run.inputTokens, outputTokens: run.outputTokens, costUsd: microsToUsd(run.costMicros) },
    artifacts: await allRunArtifacts(em, runId),
  };
}

function reportStep(step: RunStep, answerers: Map<string, { by: GateAnswerer; at: string }>): ReportStep {
  const out: ReportStep = {
    index: step.index,
    type: step.type,
    status: step.status,
    startedAt: step.startedAt.toISOString(),
    completedAt: step.completedAt?.toISOString() ?? null,
  };
  const { id, type: _type, answer, error, tool, ...asked } = step.detail;
  if (typeof error === 'string') out.error = error;
  if (!GATES.has(step.type)) {
    if (typeof tool === 'string') out.tool = tool;
    return out;
  }
  const actionId = typeof id === 'string' ? id : null;
  const who = actionId ? answerers.get(actionId) : undefined;
  const answered = step.status !== 'waiting';
  out.gate = {
    actionId,
    asked: tool === undefined ? asked : { tool, ...asked },
    answer: answered ? withoutActionId(answer) : null,
    answeredBy: answered ? (who?.by ?? null) : null,
    answeredAt: answered ? (who?.at ?? out.completedAt) : null,
  };
  return out;
}

/** The answer as the person gave it: the gate's signal without the action id it carried. */
function withoutActionId(answer: unknown): unknown {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return answer ?? null;
  const { actionId: _actionId, ...given } = answer as Record<string, unknown>;
  return given;
}
