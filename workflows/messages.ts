import { defineQuery, defineSignal } from '@temporalio/workflow';

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
  | { id: string; type: 'approval'; tool?: string; args?: Record<string, unknown>; proposedOutput?: unknown }
  | { id: string; type: 'review'; proposedOutput: unknown };

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
