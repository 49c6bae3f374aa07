import { defineSignal } from '@temporalio/workflow';
import type { ApprovalPolicy, GateApproval } from './approvalPolicy';
import type { PolicyProgress } from './messages';
import type { PolicyEvent } from './policyGate';

/**
 * The flows' vocabulary (docs/api/flows.md), shared by the flow workflow, the activities, the API and
 * the database entities: step definitions, triggers, flow-run statuses and the approval signal.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ConditionOp = 'eq' | 'ne' | 'gt' | 'lt' | 'exists' | 'contains';

export type FlowStep =
  | { name: string; type: 'agent'; agentId: string; input: unknown }
  | { name: string; type: 'http'; method: HttpMethod; url: string; headers?: Record<string, string>; body?: unknown }
  | { name: string; type: 'approval'; message: string; approvalPolicy?: ApprovalPolicy }
  | { name: string; type: 'condition'; if: { path: string; op: ConditionOp; value?: unknown }; else: string }
  | { name: string; type: 'delay'; seconds: number }
  | { name: string; type: 'save_output'; connectionId: string; from: string };
export type FlowStepType = FlowStep['type'];

export type FlowTriggerType = 'manual' | 'webhook' | 'schedule';
export interface FlowTrigger {
  type: FlowTriggerType;
  cron?: string;
  timezone?: string;
}

export const FLOW_RUN_STATUSES = ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled'] as const;
export type FlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];
export const FLOW_RUN_TERMINAL: readonly FlowRunStatus[] = ['succeeded', 'failed', 'cancelled'];

export type FlowStepStatus = 'pending' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

export interface FlowError {
  code: string;
  message: string;
}

/** One step of a flow run as the read model shows it. */
export interface FlowRunStepState {
  name: string;
  type: FlowStepType;
  status: FlowStepStatus;
  output: unknown;
  error: FlowError | null;
  runId?: string;
}

/** What started a flow run; `input` is what `{{trigger.<path>}}` reads. */
export interface FlowRunTrigger {
  type: FlowTriggerType;
  input: Record<string, unknown>;
}

/** Error codes a flow run or one of its steps ends with (docs/api/flows.md#errors). */
export const FlowFailure = {
  templateError: 'flow.template_error',
  rejected: 'flow.rejected',
  // an approval step under a policy with `onExpiry: fail` that nobody approved in time
  approvalExpired: 'flow.approval_expired',
  httpError: 'flow.http_error',
  agentRunFailed: 'flow.agent_run_failed',
  agentMissing: 'agent.not_found',
  insufficientCredits: 'billing.insufficient_credits',
  // The run gate's refusals for the flow run's principal (docs/api/billing.md#who-pays).
  spendCapExceeded: 'billing.spend_cap_exceeded',
  verificationRequired: 'auth.email_verification_required',
  saveOutputFailed: 'flow.save_output_failed',
  internal: 'flow.internal_error',
} as const;

export interface ApprovalPayload {
  actionId: string;
  approved: boolean;
  comment?: string;
  /** Who answered an approval step under a policy (the API checked they may), and when the API took it. */
  by?: { userId: string | null; keyId: string | null };
  at?: string;
}

/** How an approval step ended, as its output records it: under a policy, with the approvals counted. */
export interface ApprovalRecord {
  actionId: string;
  approved: boolean;
  comment?: string;
  approvals?: GateApproval[];
}
export const flowApprovalSignal = defineSignal<[ApprovalPayload]>('flowApproval');

export interface FlowWorkflowArgs {
  flowRunId: string;
}

/** A flow run's workflow id (docs/api/flows.md). */
export const flowWorkflowId = (flowRunId: string) => `flow-${flowRunId}`;
/** A schedule-triggered flow's Temporal Schedule id. */
export const flowScheduleId = (flowId: string) => `flow-schedule-${flowId}`;

/** What the flow workflow needs to know of its steps: no inputs, no templates (those stay in PostgreSQL). */
export interface FlowPlanStep {
  name: string;
  type: FlowStepType;
  seconds?: number;
  /** An approval step's policy: the workflow counts its approvals and keeps its timers. */
  policy?: ApprovalPolicy;
}
export type FlowPlan = { steps: FlowPlanStep[] } | { endedAs: FlowRunStatus };

/** The outcome of a condition step: go on with the next step, jump to a later one, or stop the flow. */
export type ConditionOutcome = { next: 'continue' } | { next: 'stop' } | { next: 'jump'; index: number };

/** The agent run an agent step made, for the workflow to start as its child. */
export interface AgentStepRun {
  runId: string;
  workspaceId: string;
  agentId: string;
}

/** The flow activities the workflows schedule (implemented in activities/flows.ts). */
export interface FlowActivities {
  beginFlowRun(flowRunId: string): Promise<FlowPlan>;
  markFlowStep(flowRunId: string, index: number, patch: Partial<FlowRunStepState>): Promise<void>;
  flowHttpStep(flowRunId: string, index: number): Promise<void>;
  flowConditionStep(flowRunId: string, index: number): Promise<ConditionOutcome>;
  /** An approval step opens; under a policy, `progress` is what it shows as it opens. */
  flowAwaitApproval(flowRunId: string, index: number, actionId: string, progress?: PolicyProgress): Promise<void>;
  /** Shows an approval step's progress under its policy (an approval counted, an escalation). */
  flowShowApproval(
    flowRunId: string,
    index: number,
    actionId: string,
    progress: PolicyProgress,
    event: PolicyEvent,
  ): Promise<void>;
  /** Tells the approvers of the open approval step who have not answered (by mail). */
  flowNotifyApprovers(flowRunId: string, actionId: string, reason: 'opened' | 'reminder' | 'escalated'): Promise<void>;
  flowRecordApproval(flowRunId: string, index: number, payload: ApprovalRecord): Promise<void>;
  flowCreateAgentRun(flowRunId: string, index: number): Promise<AgentStepRun>;
  flowFinishAgentStep(flowRunId: string, index: number, runId: string): Promise<void>;
  /** A save_output step's delivery, recorded once; null when the flow run is gone. */
  flowRecordSaveOutput(flowRunId: string, index: number): Promise<string | null>;
  flowFinishSaveOutput(
    flowRunId: string,
    index: number,
    deliveryId: string,
    status: 'succeeded' | 'failed',
  ): Promise<void>;
  finishFlowRun(flowRunId: string, status: FlowRunStatus, error: FlowError | null): Promise<void>;
  createScheduledFlowRun(flowId: string, tickId: string): Promise<{ flowRunId: string; workspaceId: string } | null>;
}
