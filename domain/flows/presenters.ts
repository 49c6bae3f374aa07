import { hideHeaders } from './headerSecrets';
import type { Flow, FlowStatus } from '../../db/entities/Flow';
import type { FlowRun, PendingApproval } from '../../db/entities/FlowRun';
import type {
  FlowError,
  FlowRunStatus,
  FlowRunStepState,
  FlowRunTrigger,
  FlowStep,
  FlowTrigger,
} from '../../workflows/flowMessages';

export interface FlowView {
  id: string;
  name: string;
  description: string | null;
  projectId: string | null;
  status: FlowStatus;
  trigger: FlowTrigger;
  steps: FlowStep[];
  /** The full URL only in the answer that made its token; otherwise null (the token is stored hashed). */
  webhookUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface FlowRunView {
  id: string;
  flowId: string;
  status: FlowRunStatus;
  trigger: FlowRunTrigger;
  steps: FlowRunStepState[];
  error: FlowError | null;
  pendingApproval: PendingApproval | null;
  createdAt: string;
  completedAt: string | null;
}

export function presentFlow(flow: Flow, webhookUrl: string | null = null): FlowView {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    projectId: flow.projectId,
    status: flow.status,
    trigger: flow.trigger,
    steps: hideHeaders(flow.steps),
    webhookUrl,
    createdAt: flow.createdAt.toISOString(),
    updatedAt: flow.updatedAt.toISOString(),
  };
}

export function presentFlowRun(run: FlowRun): FlowRunView {
  return {
    id: run.id,
    flowId: run.flowId,
    status: run.status,
    trigger: run.trigger,
    steps: run.steps.map((s) => ({ ...s, output: s.output ?? null, error: s.error ?? null })),
    error: run.error,
    pendingApproval: run.pendingApproval,
    createdAt: run.createdAt.toISOString(),
    completedAt: run.completedAt ? run.completedAt.toISOString() : null,
  };
}
