/**
 * The model layer's vocabulary, plain JSON: the conversation is stored in PostgreSQL
 * (domain/runs/conversation.ts), and tool calls cross the Temporal activity boundary.
 */

export type { ChatMessage, ToolCall, ToolSpec, TurnResult, Usage } from '../../workflows/agentTurn';
import type { ChatMessage, ToolSpec, TurnResult } from '../../workflows/agentTurn';

/** The pricing every model carries in `GET /v1/models`. */
export interface ModelPricing {
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
  perRunUsd: number;
}

/** A model as `GET /v1/models` lists it: `{ id, provider, pricing }`. */
export interface ModelInfo {
  id: string;
  provider: string;
  pricing: ModelPricing;
}

/** One model turn: the agent's instructions, the run input and the history so far. */
export interface TurnRequest {
  modelId: string;
  instructions: string | null;
  runInput: Record<string, unknown>;
  messages: ChatMessage[];
  tools: ToolSpec[];
}

/** A family of models behind one transport. */
export interface ModelProvider {
  readonly name: string;
  models(): ModelInfo[];
  /**
   * Its turns are computed in this process from the request alone, with no I/O, and end within
   * milliseconds (the built-ins): the run workflow makes them local activities (docs/api/runs.md).
   */
  readonly inProcess?: boolean;
  /** Runs one turn; rejects with {@link ModelError}, or with `signal.reason` when the caller aborts. */
  turn(req: TurnRequest, signal?: AbortSignal): Promise<TurnResult>;
}

/**
 * A model call that could not produce a turn. `retryable: false` means trying again cannot help
 * (bad request, unknown model), so the activity fails the run instead of letting Temporal retry.
 * `retryAfterMs` is how long the provider asked us to wait before the next attempt (its `Retry-After`
 * on a 429 or 503), for the activity to use as the next retry delay. Messages never contain credentials.
 */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** Type guard for {@link ModelError}. */
export function isModelError(err: unknown): err is ModelError {
  return err instanceof ModelError;
}
