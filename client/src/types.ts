/**
 * Request and response shapes of the service. JSON objects the service leaves open
 * (run input/output, metadata, agent settings' extras) are typed as {@link JsonObject} or `unknown`.
 */

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** Every run status; `succeeded`, `failed` and `cancelled` are terminal. */
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
/** A run status. */
export type RunStatus = (typeof RUN_STATUSES)[number];
/** Statuses a run never leaves. */
export const TERMINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];
/** Statuses in which a run waits for a person (input, approval, review). */
export const PAUSED_STATUSES: readonly RunStatus[] = ['needs_input', 'needs_approval', 'needs_review'];

/** True when `status` is one of {@link RUN_STATUSES}. */
export function isRunStatus(status: unknown): status is RunStatus {
  return typeof status === 'string' && (RUN_STATUSES as readonly string[]).includes(status);
}

/** True when `status` is terminal: `succeeded`, `failed` or `cancelled`. */
export function isTerminalStatus(status: unknown): boolean {
  return typeof status === 'string' && (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** Who may approve under an approval policy: members with one of `roles`, or one of `userIds`. */
export interface Approvers {
  roles?: Array<'owner' | 'admin' | 'member'>;
  userIds?: string[];
}

/** Who answers an agent's approval gates, how many must, and what happens when nobody does. */
export interface ApprovalPolicy {
  approvers: Approvers;
  /** 1..5 distinct people; one rejection rejects. */
  required: number;
  forbidSelfApproval: boolean;
  allowKeys: boolean;
  /** ISO-8601 duration, e.g. `PT4H`. */
  expiresAfter?: string;
  onExpiry?: 'reject' | 'fail' | 'escalate';
  escalateTo?: Approvers;
  remindAfter?: string;
}

/** One approval counted at a gate under a policy (`keyId` when it came through an API key). */
export interface GateApproval {
  userId: string | null;
  keyId: string | null;
  at: string;
  comment: string | null;
}

/** Why an approval is refused: the error's `details.reason` (403 `forbidden`). */
export type IneligibleReason = 'not_an_approver' | 'self_approval' | 'keys_not_allowed' | 'already_answered_by_you';

/** What a paused run waits for. */
export type PendingAction =
  | { id: string; type: 'input'; question: string }
  | {
      id: string;
      type: 'approval';
      tool?: string;
      args?: JsonObject;
      proposedOutput?: JsonValue;
      /** Present when the agent's approval gates have a policy. */
      policy?: ApprovalPolicy;
      /** The approvals counted so far. */
      approvals?: GateApproval[];
      /** How many approvals are still needed. */
      remaining?: number;
      expiresAt?: string | null;
      escalated?: boolean;
    }
  | { id: string; type: 'review'; proposedOutput: JsonValue };

/** Error of a failed run, e.g. `{ code: 'run.rejected', message }`. */
export interface RunError {
  code: string;
  message: string;
}

/** Token and cost figures of a run. */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** A run, as every run route and the event stream return it. */
export interface Run {
  id: string;
  agentId: string;
  agentVersion: number;
  status: RunStatus;
  input: JsonObject;
  output: JsonValue | null;
  error: RunError | null;
  pendingAction: PendingAction | null;
  usage: RunUsage;
  /** The object given at creation, `{}` when none was. */
  metadata: JsonObject;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** Body of `runs.create`. */
export interface RunCreateParams {
  agentId: string;
  /** Free-form input; may hold `fileIds` of uploaded files. */
  input?: JsonObject & { fileIds?: string[] };
  metadata?: JsonObject;
}

/** Filters of `runs.list`. */
export interface RunListParams {
  status?: RunStatus;
  agentId?: string;
  /** Page size, 1..100 (server default 20). */
  limit?: number;
}

/** Result of `runs.output`. */
export interface RunOutput {
  runId: string;
  status: RunStatus;
  output: JsonValue | null;
}

/** One step of a run. */
export interface RunStep {
  index: number;
  type: string;
  status: string;
  detail: JsonObject;
  startedAt: string;
  /** `null` while the step is still running. */
  completedAt: string | null;
}

/** Body of `runs.input`. */
export interface RunInputParams {
  answer: JsonValue;
  /** The pending action being answered; a stale one gets 409 `run.invalid_state`. */
  actionId?: string;
}

/** Body of `runs.approve`. `approved: false` fails the run with `run.rejected`. */
export interface RunApproveParams {
  approved: boolean;
  comment?: string;
  actionId?: string;
}

/** Body of `runs.review`. */
export interface RunReviewParams {
  accept: boolean;
  correctedOutput?: JsonValue;
  actionId?: string;
}

/** Body of `runs.feedback`. */
export interface RunFeedbackParams {
  /** Integer 1..5. */
  rating: number;
  correctedOutput?: JsonValue;
  comment?: string;
}

/** A stored feedback entry; absent optional fields of the request are `null`. */
export interface Feedback {
  id: string;
  runId: string;
  rating: number;
  correctedOutput: JsonValue | null;
  comment: string | null;
  createdAt: string;
}

/** An event from the run's live stream (or synthesised while polling). */
export type RunEvent = { type: 'run.status'; data: Run } | { type: 'run.step'; data: RunStep };

/** Agent settings: which gates a run meets, and how many model turns it may take. */
export interface AgentSettings {
  approval: 'never' | 'before_output' | 'before_tools';
  approvalTools?: string[];
  /** Who answers the approval gates; absent or null: anyone who may write runs, once. */
  approvalPolicy?: ApprovalPolicy | null;
  review: boolean;
  maxSteps: number;
  /** Save-output connections a succeeded run's output is sent to. */
  saveOutput?: string[];
  /** A phone agent's voice (`client.phone.voices()`). */
  voice?: string;
}

/** An agent (latest version). */
export interface Agent {
  id: string;
  name: string;
  version: number;
  presetId: string;
  /** The project the agent belongs to, or `null`. */
  projectId: string | null;
  /** Saved tables the agent may read with the `saved_table_rows` tool. */
  savedTableIds: string[];
  /** Present only for a key with `runner:run` or `agents:write` (a key that may only read agents never sees them). */
  instructions?: string | null;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
  createdAt: string;
  updatedAt: string;
}

/** One immutable version of an agent (`agents.versions`). */
export interface AgentVersion {
  version: number;
  /** Present only for a key with `runner:run` or `agents:write`, as on {@link Agent}. */
  instructions?: string | null;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
  createdAt: string;
}

/** Body of `agents.create`; defaults come from the preset (`general-assistant` when absent). */
export interface AgentCreateParams {
  name: string;
  presetId?: string;
  /** The project to put the agent in; `null` (on update) takes it out of its project. */
  projectId?: string | null;
  /** Saved tables of the workspace the agent may read. */
  savedTableIds?: string[];
  instructions?: string;
  modelId?: string;
  tools?: string[];
  settings?: Partial<AgentSettings>;
}

/** A project: a group of the workspace's agents. */
export interface Project {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Body of `projects.create`. */
export interface ProjectCreateParams {
  name: string;
  description?: string | null;
}

/** A user's role in a project. */
export type ProjectRole = 'viewer' | 'editor';

/** A workspace user's membership of a project. */
export interface ProjectMember {
  projectId: string;
  userId: string;
  role: ProjectRole;
  createdAt: string;
  updatedAt: string;
}

/** An uploaded file. */
export interface FileObject {
  id: string;
  filename: string;
  mime: string;
  size: number;
  sha256: string;
  folderId: string | null;
  createdAt: string;
}

/** A file of the library as a run input: the file, and the newest run that took it. */
export interface InputFile extends FileObject {
  lastUsedAt: string;
  runId: string;
}

/** A batch of runs a local runner reported together. */
export interface LocalRunBatch {
  id: string;
  agentId: string;
  count: number;
  createdAt: string;
}

/** One local-runner batch with its runs' ids, in the order they were reported. */
export interface LocalRunBatchDetail extends LocalRunBatch {
  runIds: string[];
}

/** Webhook event kinds: the five run statuses that are announced. */
export const WEBHOOK_EVENTS = [
  'run.succeeded',
  'run.failed',
  'run.needs_input',
  'run.needs_approval',
  'run.needs_review',
] as const;
/** A webhook event kind. */
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** Every scope an API key may hold; there is no wildcard, not even a partial one. */
export const SCOPES = [
  'runs:read',
  'runs:write',
  'agents:read',
  'agents:write',
  'files:read',
  'files:write',
  'feedback:write',
  'webhooks:manage',
  'usage:read',
  'keys:manage',
  'apps:manage',
  'phone:read',
  'phone:manage',
  'finance:read',
  'finance:write',
  'data_sources:read',
  'data_sources:manage',
  'flows:read',
  'flows:manage',
  'whatsapp:read',
  'whatsapp:manage',
  'runner:run',
] as const;
/** An API key scope. */
export type Scope = (typeof SCOPES)[number];

/** A webhook subscription; the secret is write-only and never returned. */
export interface Webhook {
  id: string;
  url: string;
  events: WebhookEventType[];
  status: 'active' | 'disabled';
  createdAt: string;
  updatedAt: string;
}

/** Body of `webhooks.create`. */
export interface WebhookCreateParams {
  url: string;
  events: WebhookEventType[];
  /** 16..256 characters; signs the deliveries. */
  secret: string;
}

/** One attempt of a webhook delivery; `statusCode` is `null` when no response came (`error` says why). */
export interface WebhookDeliveryAttempt {
  at: string;
  statusCode: number | null;
  error: string | null;
}

/** A webhook delivery as logged by the service (`webhooks.deliveries`). */
export interface WebhookDelivery {
  id: string;
  type: WebhookEventType;
  runId: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: WebhookDeliveryAttempt[];
  createdAt: string;
}

/** Body of a webhook delivery; `id` names the event: the same for every subscription, attempt and redelivery of it. */
export interface WebhookDeliveryBody {
  id: string;
  type: WebhookEventType;
  run: { id: string; status: RunStatus; output: JsonValue | null; error: RunError | null };
}

/** An API key as listed (never with its plaintext). */
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

/** A freshly created API key: the only time `key` (the plaintext) is returned. */
export interface CreatedApiKey {
  id: string;
  name: string;
  scopes: string[];
  key: string;
  prefix: string;
  monthlySpendCapUsd: number | null;
  createdAt: string;
}

/** Body of `apiKeys.create`. */
export interface ApiKeyCreateParams {
  name: string;
  scopes: string[];
  monthlySpendCapUsd?: number | null;
}

/** Query of `usage.get`: dates as `YYYY-MM-DD` strings or `Date`s (their UTC day). */
export interface UsageParams {
  from: string | Date;
  to: string | Date;
  /** Adds `billedUsd`: what this price list bills for the same runs. */
  priceListId?: string;
}

/** Totals over finished runs. */
export interface UsageTotals {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** Usage totals for a date range (UTC days, both ends included), also split by day and by agent. */
export interface Usage extends UsageTotals {
  from: string;
  to: string;
  byDay: Array<UsageTotals & { date: string }>;
  byAgent: Array<UsageTotals & { agentId: string }>;
  /** Only when asked with `priceListId`: what that price list bills for these runs. */
  billedUsd?: number;
}

/** A price list: what the workspace charges its own customers. */
export interface PriceList {
  id: string;
  name: string;
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Body of `priceLists.create`. */
export interface PriceListCreateParams {
  name: string;
  isDefault?: boolean;
}

/** What a rule matches; `null` (or absent) matches anything. */
export interface PricingMatch {
  agentId: string | null;
  modelId: string | null;
  appId: string | null;
}

/** A rule of a price list; USD amounts, `null` when unset. */
export interface PricingRule {
  id: string;
  priceListId: string;
  match: PricingMatch;
  perRunUsd: number | null;
  inputPerMTokUsd: number | null;
  outputPerMTokUsd: number | null;
  /** Applied to the service's cost of the run: 20 asks for the cost × 1.2. */
  markupPercent: number | null;
  priority: number;
  createdAt: string;
  updatedAt: string;
}

/** Body of `priceLists.createRule`: at least one of the prices or the markup. */
export interface PricingRuleCreateParams {
  match?: Partial<PricingMatch>;
  perRunUsd?: number;
  inputPerMTokUsd?: number;
  outputPerMTokUsd?: number;
  markupPercent?: number;
  priority: number;
}

/** Body of `priceLists.updateRule`: `match` replaces the whole match, `null` clears a price. */
export interface PricingRuleUpdateParams {
  match?: Partial<PricingMatch>;
  perRunUsd?: number | null;
  inputPerMTokUsd?: number | null;
  outputPerMTokUsd?: number | null;
  markupPercent?: number | null;
  priority?: number;
}

/** Query of `priceLists.quote`; token counts default to 0. */
export interface QuoteParams {
  agentId: string;
  inputTokens?: number;
  outputTokens?: number;
}

/** What a price list asks for one run, and the rule that priced it (`null`: none matched, the service's cost). */
export interface Quote {
  priceUsd: number;
  ruleId: string | null;
}

/** Balance and plan of the workspace. */
export interface Balance {
  balanceUsd: number;
  plan: string;
  entitlements: { apiRateLimitPerMin: number };
}
