import type { AgentSettings, ChatMessage, StepStatus, StepType, ToolCall, ToolSpec, TurnResult } from './agentTurn';
import type { InputPayload, PendingAction, RunError, RunStatus } from './messages';
import type { PolicyEvent } from './policyGate';

/**
 * The activities the workflows schedule, declared here so that workflow code depends on nothing
 * outside this folder; the worker's factories (activities/) implement them and say so with `satisfies`.
 */

/** What a run executes, loaded when it starts (domain/runs/execution.ts); the workflow gets its settings only. */
export interface RunPlan {
  modelId: string;
  instructions: string | null;
  input: Record<string, unknown>;
  tools: ToolSpec[];
  settings: AgentSettings;
}

/** A change of a run's status in the read model. */
export interface TransitionPatch {
  status: RunStatus;
  pendingAction?: PendingAction | null;
  output?: unknown;
  error?: RunError | null;
}

export interface ModelTurnRequest {
  modelId: string;
  instructions: string | null;
  input: Record<string, unknown>;
  messages: ChatMessage[];
  tools: ToolSpec[];
}

/**
 * What the workflow needs when a run starts: its agent version's settings. The model, instructions,
 * tools and input stay in PostgreSQL, where each turn loads them. `turnsInProcess`: its model's turns are
 * computed in the worker with no I/O (the built-ins), so the workflow may run them as local activities.
 */
export type RunStart = { settings: AgentSettings; turnsInProcess?: boolean } | { endedAs: RunStatus };

/** What a model turn decided, without the conversation (stored in PostgreSQL): the workflow's next move. */
export type TurnDecision =
  | { kind: 'tool_calls'; toolCalls: ToolCall[] }
  | { kind: 'final'; output: unknown }
  | { kind: 'fail'; message: string };

/**
 * The conversation of a run stays in PostgreSQL: `beginRun`, `nextTurn`, `useTool` and `recordAnswer` pass
 * ids and message indexes only (`at`: where the message they store goes in the run's conversation).
 */
export interface RunActivities {
  beginRun(runId: string): Promise<RunStart>;
  /** With `announcesInline`, returns the announcement of the status it wrote, when someone listens. */
  transition(runId: string, patch: TransitionPatch, opts?: StatusWriteOptions): Promise<AnnouncedRun | null>;
  recordStep(
    runId: string,
    index: number,
    type: StepType,
    status: StepStatus,
    detail: Record<string, unknown>,
  ): Promise<void>;
  nextTurn(runId: string, index: number, at: number): Promise<TurnDecision>;
  useTool(runId: string, index: number, at: number, callId: string): Promise<void>;
  recordAnswer(runId: string, index: number, at: number, callId: string, given: InputPayload): Promise<void>;
  /**
   * Shows an approval gate's progress under its policy (`action` as it is now) and appends the event that
   * changed it to the run's stream; nothing when the gate is no longer the run's pending action.
   */
  showApproval(runId: string, action: PendingAction, event: PolicyEvent): Promise<void>;
  /** Tells the approvers of the run's pending gate who have not answered (mail with one-click links). */
  notifyApprovers(runId: string, actionId: string, reason: 'opened' | 'reminder' | 'escalated'): Promise<void>;
  /** With `announcesInline`, returns the announcement of the status it wrote, when someone listens. */
  finishRun(runId: string, patch: TransitionPatch, opts?: StatusWriteOptions): Promise<AnnouncedRun | null>;
}

/**
 * How a status write announces its status. Without `announcesInline` (a child run's writes, and those made
 * outside a run's workflow), it starts a webhook fan-out workflow itself; with it, it returns the
 * announcement (only when someone listens) for the run workflow to deliver.
 */
export interface StatusWriteOptions {
  announcesInline?: boolean;
}

/** A status change to announce to webhook subscribers, as it was when it happened. */
export interface AnnouncedRun {
  id: string;
  workspaceId: string;
  status: RunStatus;
  output: unknown;
  error: RunError | null;
  pendingAction: PendingAction | null;
}

/**
 * What the fan-out's first attempts came to. `retry`: attempt 1 failed (logged), attempts 2 and 3 follow
 * on the usual path; `queued`: not attempted (every workspace slot was taken), the usual path makes all 3.
 */
export interface FirstAttempts {
  succeeded: number;
  /** Subscriptions deleted or disabled since the deliveries were recorded: marked failed, nothing sent. */
  gone: number;
  retry: string[];
  queued: string[];
}

export interface WebhookActivities {
  /**
   * The fan-out as one step: records the deliveries and makes every first attempt concurrently; the
   * ones whose attempt 1 failed (`retry`) or that waited for a workspace slot (`queued`) are left.
   */
  fanOutFirstAttempts(run: AnnouncedRun): Promise<FirstAttempts>;
  /**
   * The same as a local activity of the run's worker: null, having done nothing, when every inline
   * fan-out of the process is in use (SVC_WEBHOOK_INLINE_FANOUTS).
   */
  fanOutFirstAttemptsHere(run: AnnouncedRun): Promise<FirstAttempts | null>;
  /** Takes one of the workspace's delivery slots; throws at once, to be retried, while all are taken. */
  claimDeliverySlot(deliveryId: string): Promise<void>;
  /** One attempt, numbered `priorAttempts` + Temporal's attempt; throws to make Temporal retry. */
  deliverWebhook(deliveryId: string, priorAttempts?: number): Promise<void>;
  /** Marks a delivery whose attempts are used up as failed. */
  failDelivery(deliveryId: string): Promise<void>;
}

export interface SavedTableActivities {
  /** Reads the saved table's source and replaces its rows; a source failure is recorded, not thrown. */
  refreshSavedTable(savedTableId: string): Promise<void>;
}

/** One output to record for a save-output connection (docs/api/output-connections.md). */
export interface OutputDeliveryRequest {
  workspaceId: string;
  connectionId: string;
  output: unknown;
  runId?: string | null;
  flowRunId?: string | null;
  /** One delivery per (connection, key): default `run:<runId>`; a flow step passes its own, e.g. `flow-run:<id>:<step>`. */
  key?: string;
}

export interface OutputActivities {
  /** Records an output for a connection; the delivery's id. Fails non-retryably when the connection is gone. */
  recordOutputDelivery(req: OutputDeliveryRequest): Promise<string>;
  /** A succeeded run's deliveries, one per live connection its agent version lists; the pending ones' ids. */
  recordRunOutputs(runId: string): Promise<string[]>;
  /** One attempt; throws to make Temporal retry. */
  deliverOutput(deliveryId: string): Promise<void>;
  /** Marks a delivery whose attempts are used up as failed. */
  failOutputDelivery(deliveryId: string): Promise<void>;
}

/** The retention sweep's activities (workflows/retentionWorkflow.ts, docs/operations.md#retention). */
export interface RetentionActivities {
  /** Deletes, in short batches, the rows of one table past their workspace's retention; returns how many. */
  purgeExpiredRows(table: string): Promise<number>;
}
