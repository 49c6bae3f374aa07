/** Shapes of flows and flow runs (the service's docs/api/flows.md). */
import type { ApprovalPolicy, GateApproval } from './types.js';

export type FlowStatus = 'active' | 'paused';
export type FlowTriggerType = 'manual' | 'webhook' | 'schedule';
/** Every flow run status; `succeeded`, `failed` and `cancelled` are terminal. */
export const FLOW_RUN_STATUSES = ['queued', 'running', 'waiting_approval', 'succeeded', 'failed', 'cancelled'] as const;
export type FlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];
/** Statuses a flow run never leaves. */
export const FLOW_RUN_TERMINAL_STATUSES: readonly FlowRunStatus[] = ['succeeded', 'failed', 'cancelled'];
/** Every status of a flow run's step (`waiting`: an approval step waits for a person). */
export const FLOW_STEP_STATUSES = [
  'pending',
  'running',
  'waiting',
  'succeeded',
  'failed',
  'skipped',
  'cancelled',
] as const;
export type FlowStepStatus = (typeof FLOW_STEP_STATUSES)[number];

/** How a flow starts: by hand, by its webhook URL, or on a cron schedule (`timezone` defaults to UTC). */
export interface FlowTrigger {
  type: FlowTriggerType;
  cron?: string;
  timezone?: string;
}

/** One step; strings may hold `{{trigger.<path>}}` and `{{steps.<name>.output.<path>}}`. */
export type FlowStep =
  | { name: string; type: 'agent'; agentId: string; input?: Record<string, unknown> }
  | {
      name: string;
      type: 'http';
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      url: string;
      headers?: Record<string, string>;
      body?: unknown;
    }
  | { name: string; type: 'approval'; message: string; approvalPolicy?: ApprovalPolicy }
  | {
      name: string;
      type: 'condition';
      if: { path: string; op: 'eq' | 'ne' | 'gt' | 'lt' | 'exists' | 'contains'; value?: unknown };
      else: string;
    }
  | { name: string; type: 'delay'; seconds: number }
  | { name: string; type: 'save_output'; connectionId: string; from: string };

export interface Flow {
  id: string;
  name: string;
  description: string | null;
  projectId: string | null;
  status: FlowStatus;
  trigger: FlowTrigger;
  steps: FlowStep[];
  /** The webhook URL with its token: only in the answer that made the token, else `null`. */
  webhookUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `client.flows.create`: a definition, or a template (`agentId` for templates with agent steps). */
export type FlowCreateParams =
  | {
      name: string;
      description?: string | null;
      projectId?: string | null;
      status?: FlowStatus;
      trigger: FlowTrigger;
      steps: FlowStep[];
    }
  | { templateId: string; name: string; agentId?: string; description?: string | null; projectId?: string | null };

/** `client.flows.update`: at least one field. */
export interface FlowUpdateParams {
  name?: string;
  description?: string | null;
  projectId?: string | null;
  status?: FlowStatus;
  trigger?: FlowTrigger;
  steps?: FlowStep[];
}

export interface FlowTemplate {
  id: string;
  name: string;
  description: string;
  needsAgent: boolean;
  trigger: FlowTrigger;
  steps: FlowStep[];
}

export interface FlowError {
  code: string;
  message: string;
}

export interface FlowRunStep {
  name: string;
  type: FlowStep['type'];
  status: FlowStepStatus;
  output: unknown;
  error: FlowError | null;
  /** The agent run of an agent step. */
  runId?: string;
}

export interface FlowRun {
  id: string;
  flowId: string;
  status: FlowRunStatus;
  trigger: { type: FlowTriggerType; input: Record<string, unknown> };
  steps: FlowRunStep[];
  error: FlowError | null;
  /** Under an approval policy it also shows the policy, the approvals counted, what remains and the expiry. */
  pendingApproval: {
    id: string;
    step: string;
    message: string;
    policy?: ApprovalPolicy;
    approvals?: GateApproval[];
    remaining?: number;
    expiresAt?: string | null;
    escalated?: boolean;
  } | null;
  createdAt: string;
  completedAt: string | null;
}
