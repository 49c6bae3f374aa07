import type { z } from 'zod';
import { BUILTIN_PRICING, BUILTIN_PROVIDER } from './builtin';
import type { ModelInfo, ModelProvider, TurnRequest, TurnResult, Usage } from './types';

/** A built-in model whose turns a real model may answer instead of its rules (docs/api/agents.md#the-assistant-model). */
export interface AssistedModel {
  /** Its id (`builtin/copilot`, `builtin/tutor`). */
  id: string;
  /** The deterministic rules: the answer without an assistant model, and whenever the assistant's does not fit. */
  rules: ModelProvider;
  /** The system prompt for this turn (its input, the agent's instructions): the JSON shape the answer must have. */
  prompt(input: Record<string, unknown>, instructions: string | null): string;
  /** The shape of a good answer for this turn's input, checked before it is taken. */
  reply(input: Record<string, unknown>): z.ZodType;
}

const add = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

/**
 * `model` answered by a real one (`SVC_ASSISTANT_MODEL`): the turn's run input goes to `assistant` with
 * the model's prompt, and the answer is checked with zod. A reply that does not fit (prose, invalid JSON, a
 * field out of bounds, a tool call) is answered by the rules instead, so the feature never shows a
 * malformed answer; the tokens the model used are still counted. Provider errors propagate unchanged (the
 * run's retry policy handles them). Priced at the assistant model's token prices plus the built-in per-run
 * price, and never in-process (it makes a network call).
 */
export function assistedBy(model: AssistedModel, real: ModelProvider, assistant: ModelInfo): ModelProvider {
  const info: ModelInfo = {
    id: model.id,
    provider: BUILTIN_PROVIDER,
    pricing: { ...assistant.pricing, perRunUsd: BUILTIN_PRICING.perRunUsd },
  };
  return {
    name: BUILTIN_PROVIDER,
    models: () => [{ ...info, pricing: { ...info.pricing } }],
    async turn(req: TurnRequest, signal?: AbortSignal): Promise<TurnResult> {
      const input = req.runInput ?? {};
      const answer = await real.turn(
        {
          modelId: assistant.id,
          instructions: model.prompt(input, req.instructions),
          runInput: input,
          messages: [],
          tools: [],
        },
        signal,
      );
      if (answer.kind === 'final') {
        const parsed = model.reply(input).safeParse(answer.output);
        if (parsed.success) return { kind: 'final', output: parsed.data, usage: answer.usage };
      }
      const fallback = await model.rules.turn(req);
      return { ...fallback, usage: add(fallback.usage, answer.usage) } as TurnResult;
    },
  };
}
