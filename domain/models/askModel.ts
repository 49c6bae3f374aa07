import type { z } from 'zod';
import type { ModelRegistry } from './registry';
import { isModelError, type Usage } from './types';

/** What a model said: the checked answer, or why there is none (for a caller's fallback or detail). */
export type ModelAnswer<T> =
  { ok: true; modelId: string; value: T; usage: Usage } | { ok: false; modelId: string; reason: string };

/**
 * Asks `modelId` (a real model: the assistant model, or an agent's own) one question outside any run: the
 * system prompt `instructions`, `input` as the user message, no tools. Its answer must be a JSON object of
 * `shape` (zod); anything else (prose, a tool call, a refusal, a field out of bounds) and any provider
 * failure after the provider's own attempt come back as `ok: false` with the reason, never as a throw, so the
 * caller decides: fall back to its rules or say so. Only the caller's cancel (`signal`) rejects.
 */
export async function askModel<S extends z.ZodType>(
  models: Pick<ModelRegistry, 'turn'>,
  modelId: string,
  question: { instructions: string; input: Record<string, unknown>; shape: S },
  signal?: AbortSignal,
): Promise<ModelAnswer<z.infer<S>>> {
  let turn;
  try {
    turn = await models.turn(
      { modelId, instructions: question.instructions, runInput: question.input, messages: [], tools: [] },
      signal,
    );
  } catch (err) {
    if (!isModelError(err)) throw err;
    return { ok: false, modelId, reason: `${modelId} failed: ${err.message}` };
  }
  if (turn.kind === 'fail') return { ok: false, modelId, reason: `${modelId} declined: ${turn.message}` };
  if (turn.kind !== 'final') return { ok: false, modelId, reason: `${modelId} called a tool instead of answering` };
  const parsed = question.shape.safeParse(turn.output);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return {
      ok: false,
      modelId,
      reason: `${modelId} gave an answer of the wrong shape${where}: ${issue?.message ?? 'invalid'}`,
    };
  }
  return { ok: true, modelId, value: parsed.data as z.infer<S>, usage: turn.usage };
}
