import type { AgentSettings, ChatMessage, StepStatus, StepType, ToolCall, ToolSpec, TurnResult } from './agentTurn';
import type { PendingAction, RunError, RunStatus } from './messages';

/**
 * The activities the workflows schedule, declared here so that workflow code depends on nothing
 * outside this folder; the worker's factories (activities/) implement them and say so with `satisfies`.
 */

/** What a run executes, loaded when it starts. */
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

export interface RunActivities {
  startRun(runId: string): Promise<RunPlan | { endedAs: RunStatus }>;
  transition(runId: string, patch: TransitionPatch): Promise<void>;
  recordStep(
    runId: string,
    index: number,
    type: StepType,
    status: StepStatus,
    detail: Record<string, unknown>,
  ): Promise<void>;
  modelTurn(runId: string, index: number, req: ModelTurnRequest): Promise<TurnResult>;
  runTool(runId: string, index: number, call: ToolCall): Promise<string>;
  finishRun(runId: string, patch: TransitionPatch): Promise<void>;
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

export interface WebhookActivities {
  /** The fan-out's first step: a delivery row per matching subscription; the pending ones' ids. */
  fanOutWebhooks(run: AnnouncedRun): Promise<string[]>;
  /** One attempt; throws to make Temporal retry. */
  deliverWebhook(deliveryId: string): Promise<void>;
  /** Marks a delivery whose attempts are used up as failed. */
  failDelivery(deliveryId: string): Promise<void>;
}
