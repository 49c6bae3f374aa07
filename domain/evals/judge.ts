import { BUILTIN_PROVIDER } from '../models/builtin';
import type { ModelRegistry } from '../models/registry';
import { ModelError } from '../models/types';
import { canonical, type CaseScore, type Judge } from './scorers';

const INSTRUCTIONS =
  'You grade an AI agent. The input holds the agent\'s "output" and the "expected" output. Answer with ' +
  'only a JSON object {"score": <number from 0 to 1>} saying how well the output matches what was expected.';

/**
 * The `judge` scorer for an agent's model (docs/api/evals.md): builtin models cannot grade, so for them
 * the score is 1 when the output equals the expected one and 0 otherwise; any other model is asked for a
 * score 0..1 in one turn. An answer that holds no such number, or a failed call, scores 0, saying so.
 * The judge's call is not charged: it grades the eval, it is no run of the workspace's.
 */
export function modelJudge(models: ModelRegistry, modelId: string, signal?: AbortSignal): Judge {
  return async (output, expected): Promise<CaseScore> => {
    if (models.get(modelId)?.provider === BUILTIN_PROVIDER) {
      return canonical(output) === canonical(expected)
        ? { score: 1, detail: 'judge (builtin model): the output equals the expected one' }
        : { score: 0, detail: 'judge (builtin model): the output differs from the expected one' };
    }
    let turn;
    try {
      turn = await models.turn(
        { modelId, instructions: INSTRUCTIONS, runInput: { output, expected }, messages: [], tools: [] },
        signal,
      );
    } catch (err) {
      // The model layer already made its attempts; a judge that cannot answer scores 0 rather than hang the eval.
      if (!(err instanceof ModelError)) throw err;
      return { score: 0, detail: `judge: ${modelId} failed: ${err.message}` };
    }
    if (turn.kind !== 'final') return { score: 0, detail: `judge: ${modelId} gave no score` };
    const score = scoreIn(turn.output);
    return score === null
      ? { score: 0, detail: `judge: ${modelId} gave no score between 0 and 1` }
      : { score, detail: `judge: ${modelId} scored ${score}` };
  };
}

/** A number 0..1 in a model's answer: the number itself, `{ score }`, or a string holding either. */
function scoreIn(answer: unknown): number | null {
  let value = answer;
  if (typeof answer === 'string') {
    try {
      value = JSON.parse(answer);
    } catch {
      value = Number(answer.trim());
    }
  }
  if (value && typeof value === 'object' && 'score' in value) value = (value as { score: unknown }).score;
  if (typeof value === 'string') value = Number(value);
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}
