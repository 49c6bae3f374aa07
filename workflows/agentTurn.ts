import type { ApprovalPolicy } from './approvalPolicy';

/**
 * What one turn of an agent is made of, shared by the run workflow and the code that executes the
 * turns. Everything here crosses the activity boundary, so it stays plain JSON.
 */

/** The human-gate tool: the workflow handles it itself (run → needs_input); it is always allowed. */
export const ASK_USER = 'ask_user';

/** One tool invocation requested by a model. `id` must be stable across replays of the same turn. */
export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** A conversation entry (a `run_messages` row); a turn reads every message since the run started. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool offered to the model; `parameters` is a JSON schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Tokens read and written by one turn (the run's `usage`). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * What a turn decided. `fail` is the model itself ending the run (error code `agent.model_error`);
 * transport problems are thrown instead.
 */
export type TurnResult =
  | { kind: 'tool_calls'; toolCalls: ToolCall[]; usage: Usage; text?: string | null }
  | { kind: 'final'; output: unknown; usage: Usage }
  | { kind: 'fail'; message: string; usage: Usage };

/** How an agent version pauses for people; see docs/api/runs.md. */
export interface AgentSettings {
  approval: 'never' | 'before_output' | 'before_tools';
  approvalTools?: string[];
  /** Who answers the approval gates and how many must (docs/api/runs.md#approval-policies); none: anyone, once. */
  approvalPolicy?: ApprovalPolicy | null;
  review: boolean;
  maxSteps: number;
  /** Save-output connections the output of a succeeded run is sent to (docs/api/output-connections.md). */
  saveOutput?: string[];
  /** A phone agent's voice, from `GET /v1/phone/voices` (docs/api/phone.md). */
  voice?: string;
}

export type StepType = 'model' | 'tool' | 'input' | 'approval' | 'review';
export type StepStatus = 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';
