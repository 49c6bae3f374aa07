import type { ModelPricing, TurnRequest, TurnResult, Usage } from './types';

/** Both built-in models cost a flat `perRunUsd: 0.001` per run; their tokens are free. */
export const BUILTIN_PRICING: ModelPricing = { inputPerMTokUsd: 0, outputPerMTokUsd: 0, perRunUsd: 0.001 };

/** The provider name shown in `GET /v1/models` for the built-ins. */
export const BUILTIN_PROVIDER = 'builtin';

/** A rough token count, `ceil(characters / 4)`, used wherever no tokenizer answers. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What a built-in model "reads": instructions, run input and the history, serialized. */
export function requestText(req: TurnRequest): string {
  return (req.instructions ?? '') + JSON.stringify(req.runInput ?? {}) + JSON.stringify(req.messages);
}

/** A turn result before its usage is known (the omit distributes over the union's members). */
export type Unmetered = TurnResult extends infer T ? (T extends TurnResult ? Omit<T, 'usage'> : never) : never;

/**
 * Attaches usage to a built-in result: tokens are `ceil(characters / 4)` of what the
 * model reads and writes; both serializations are at least two characters, so usage is never zero.
 */
export function withUsage(req: TurnRequest, result: Unmetered): TurnResult {
  const usage: Usage = {
    inputTokens: estimateTokens(requestText(req)),
    outputTokens: estimateTokens(JSON.stringify(result)),
  };
  return { ...result, usage } as TurnResult;
}
