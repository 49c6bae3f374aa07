import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { ApprovalPolicy, GateApproval } from './approvalPolicy';

/**
 * The run workflow's message surface, declared once and imported by both the API and the workflow
 * (signals and queries next to their payload types). Payloads are plain JSON.
 */

/** The statuses of a run (docs/api/runs.md). Terminal: succeeded, failed, cancelled. */
export const RUN_STATUSES = [
  'queued',
  'running',
  'needs_input',
  'needs_approval',
  'needs_review',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const TERMINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];

export type PendingAction =
  | { id: string; type: 'input'; question: string }
  | ({
      id: string;
      type: 'approval';
      tool?: string;
      args?: Record<string, unknown>;
      proposedOutput?: unknown;
    } & Partial<PolicyProgress>)
  | { id: string; type: 'review'; proposedOutput: unknown };

/**
 * What an approval gate under a policy shows (docs/api/runs.md#approval-policies): the policy, the
 * approvals counted so far, how many are still needed, when it expires and whether it was escalated.
 */
export interface PolicyProgress {
  policy: ApprovalPolicy;
  approvals: GateApproval[];
  remaining: number;
  expiresAt: string | null;
  escalated: boolean;
}

export interface RunError {
  code: string;
  message: string;
}

export interface InputPayload {
  actionId?: string;
  answer: unknown;
}
export interface ApprovePayload {
  actionId?: string;
  approved: boolean;
  comment?: string;
  /** Who answered a gate under a policy (the API checked they may), and when the API took the answer. */
  by?: { userId: string | null; keyId: string | null };
  at?: string;
}
export interface ReviewPayload {
  actionId?: string;
  accept: boolean;
  correctedOutput?: unknown;
}

export const inputSignal = defineSignal<[InputPayload]>('input');
export const approveSignal = defineSignal<[ApprovePayload]>('approve');
export const reviewSignal = defineSignal<[ReviewPayload]>('review');

export interface RunState {
  status: RunStatus;
  pendingAction: PendingAction | null;
  output: unknown;
  error: RunError | null;
}
export const stateQuery = defineQuery<RunState>('state');

export interface RunWorkflowArgs {
  runId: string;
}

/** The run's workflow id, `run-<runId>`, on the runs task queue (docs/api/runs.md). */
export const runWorkflowId = (runId: string) => `run-${runId}`;
