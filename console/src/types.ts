/** The shapes the console reads, as docs/api/*.md describe them. */
import { PAUSED_STATUSES, TERMINAL_STATUSES, type RunStatus } from '@svc/client';

export type Role = 'owner' | 'admin' | 'member';

export interface User {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
}
export interface Workspace {
  id: string;
  name: string;
  plan: string;
  role: Role;
}
export interface Me {
  user: User;
  workspaces: Workspace[];
}

// Statuses, scopes and event kinds come from the client package (one definition, held equal to the
// service's own by test/client/vocabulary.test.ts), never from a copy kept here.
export { RUN_STATUSES, SCOPES, WEBHOOK_EVENTS } from '@svc/client';
export type { RunStatus, Scope, WebhookEventType } from '@svc/client';
export const WAITING: readonly RunStatus[] = PAUSED_STATUSES;
export const TERMINAL: readonly RunStatus[] = TERMINAL_STATUSES;

export type { ApprovalPolicy, GateApproval } from '@svc/client';

export interface PendingAction {
  id: string;
  type: 'input' | 'approval' | 'review';
  question?: string;
  tool?: string;
  args?: unknown;
  proposedOutput?: unknown;
  /** An approval gate under a policy (docs/api/runs.md#approval-policies). */
  policy?: import('@svc/client').ApprovalPolicy;
  approvals?: import('@svc/client').GateApproval[];
  remaining?: number;
  expiresAt?: string | null;
  escalated?: boolean;
}
export interface Run {
  id: string;
  agentId: string;
  agentVersion: number;
  status: RunStatus;
  input: Record<string, unknown>;
  output: unknown;
  error: { code: string; message: string } | null;
  pendingAction: PendingAction | null;
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
}
export interface Step {
  index: number;
  type: string;
  status: string;
  detail: Record<string, unknown>;
  startedAt: string;
  completedAt: string | null;
}
export interface AgentSettings {
  approval?: string;
  approvalTools?: string[];
  review?: boolean;
  maxSteps?: number;
}
export interface Agent {
  id: string;
  name: string;
  presetId: string | null;
  version: number;
  instructions?: string;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
  createdAt: string;
  updatedAt: string;
}
export interface AgentVersion {
  version: number;
  instructions?: string;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
  createdAt: string;
}
export type { Preset } from '@svc/client';
export interface ApiKey {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  monthlySpendCapUsd: number | null;
  spentThisMonthUsd: number;
  createdAt: string;
  lastUsedAt: string | null;
}
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  status: 'active' | 'disabled';
  createdAt: string;
  updatedAt: string;
}
export interface Delivery {
  id: string;
  type: string;
  runId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { at: string; statusCode: number | null; error: string | null }[];
  createdAt: string;
}
export type { FileObject as FileItem, Folder } from '@svc/client';
export interface UsageTotals {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}
export interface UsageReport extends UsageTotals {
  from: string;
  to: string;
  byDay: (UsageTotals & { date: string })[];
  byAgent: (UsageTotals & { agentId: string })[];
}
export interface Balance {
  balanceUsd: number;
  plan: string;
  entitlements: { apiRateLimitPerMin: number };
}
export interface ConsoleSettings {
  temporalUiUrl: string | null;
  namespace: string;
  unverifiedRunLimit: number;
}

/** A file a run produced (`GET /v1/runs/{id}/artifacts`). */
export interface RunArtifact {
  fileId: string;
  name: string;
  mime: string;
  size: number;
  step: number | null;
  createdAt: string;
}
