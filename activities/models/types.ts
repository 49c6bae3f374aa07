/**
 * The model layer's vocabulary. Everything here crosses the Temporal activity boundary (the run
 * workflow keeps the history and passes it to every turn), so it stays plain JSON.
 */

/** One tool invocation requested by a model. `id` must be stable across replays of the same turn. */
export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** A conversation entry; `messages` in a {@link TurnRequest} holds everything since the run started. */
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

/** CONTRACT §4: the pricing every model carries in `GET /v1/models`. */
export interface ModelPricing {
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
  perRunUsd: number;
}

/** CONTRACT §4: `{ id, provider, pricing }`. */
export interface ModelInfo {
  id: string;
  provider: string;
  pricing: ModelPricing;
}

/** Tokens read and written by one turn (CONTRACT §5 `usage`). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** One model turn: the agent's instructions, the run input and the history so far. */
export interface TurnRequest {
  modelId: string;
  instructions: string | null;
  runInput: Record<string, unknown>;
  messages: ChatMessage[];
  tools: ToolSpec[];
}

/**
 * What a turn decided. `fail` is the model itself ending the run (CONTRACT §4: error code
 * `agent.model_error`); transport problems are thrown as {@link ModelError} instead.
 */
export type TurnResult =
  | { kind: 'tool_calls'; toolCalls: ToolCall[]; usage: Usage; text?: string | null }
  | { kind: 'final'; output: unknown; usage: Usage }
  | { kind: 'fail'; message: string; usage: Usage };

/** A family of models behind one transport. */
export interface ModelProvider {
  readonly name: string;
  models(): ModelInfo[];
  /** Runs one turn; rejects with {@link ModelError}, or with `signal.reason` when the caller aborts. */
  turn(req: TurnRequest, signal?: AbortSignal): Promise<TurnResult>;
}

/**
 * A model call that could not produce a turn. `retryable: false` means trying again cannot help
 * (bad request, unknown model), so the activity fails the run instead of letting Temporal retry.
 * Messages never contain credentials.
 */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** Type guard for {@link ModelError}. */
export function isModelError(err: unknown): err is ModelError {
  return err instanceof ModelError;
}
