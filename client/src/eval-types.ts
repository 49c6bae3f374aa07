/** Shapes of evals and improvement proposals (the service's docs/api/evals.md and docs/api/proposals.md). */
import type { AgentSettings } from './types.js';

/** How a case's output is compared with what it expects. */
export type EvalScorer = 'exact' | 'contains' | 'json_subset' | 'judge';

/** One case of an eval: a run input, the answers to its questions in order, the expected output. */
export interface EvalCase {
  input: Record<string, unknown>;
  answers?: string[];
  expected: unknown;
  scorer: EvalScorer;
}

/** An eval of an agent. */
export interface Eval {
  id: string;
  agentId: string;
  name: string;
  cases: EvalCase[];
  createdAt: string;
}

/** Body of `evals.create`: 1 to 100 cases. */
export interface EvalCreateParams {
  name: string;
  cases: EvalCase[];
}

/** One scored case of an eval run. */
export interface EvalResult {
  caseIndex: number;
  /** The case's run (`null` when no run could be made, e.g. not enough credits). */
  runId: string | null;
  passed: boolean;
  score: number;
  detail: string | null;
}

export type EvalRunStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** A run of an eval against one agent version; `results` holds the cases scored so far. */
export interface EvalRun {
  id: string;
  evalId: string;
  agentVersion: number;
  status: EvalRunStatus;
  total: number;
  passed: number;
  score: number | null;
  results: EvalResult[];
  createdAt: string;
  completedAt: string | null;
}

/** What a proposal changes; what it leaves out stays as the base version has it. */
export interface ProposalChanges {
  instructions?: string | null;
  settings?: Partial<AgentSettings>;
  modelId?: string;
  tools?: string[];
}

export type ProposalStatus = 'open' | 'accepted' | 'rejected';

/** A suggested change to an agent, made against its version `baseVersion`. */
export interface Proposal {
  id: string;
  agentId: string;
  baseVersion: number;
  status: ProposalStatus;
  changes: ProposalChanges;
  rationale: string;
  sourceFeedbackIds: string[];
  createdAt: string;
}

/** Body of `proposals.create`: a change and why, or a draft from the agent's corrected feedback. */
export type ProposalCreateParams = { changes: ProposalChanges; rationale: string } | { fromFeedback: true };
