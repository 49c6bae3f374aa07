import { z } from 'zod';
import { askModel } from '../models/askModel';
import { BUILTIN_PROVIDER } from '../models/builtin';
import type { ModelRegistry } from '../models/registry';
import { canonical, type CaseScore, type Judge } from './scorers';

const INSTRUCTIONS =
  'You grade an AI agent. The input holds the agent\'s "output" and the "expected" output. Answer with ' +
  'only a JSON object {"score": <number from 0 to 1>, "reason": "<one sentence>"} saying how well the output ' +
  'matches what was expected.';

/** A grade: a score 0..1 and, optionally, why. */
const grade = z.object({ score: z.number().min(0).max(1), reason: z.string().max(2000).optional() });

/**
 * The `judge` scorer (docs/api/evals.md). The grader is the assistant model when one is configured
 * (`SVC_ASSISTANT_MODEL`), else the agent's own model when it is a real one; it is asked for
 * `{ score, reason? }` in one turn, checked with zod. Builtin models cannot grade, so without an assistant
 * model an agent on one scores 1 when the output equals the expected one and 0 otherwise. An answer of
 * another shape, or a failed call, scores 0, saying why. The judge's call is not charged: it grades the
 * eval, it is no run of the workspace's.
 */
export function modelJudge(models: ModelRegistry, agentModelId: string, signal?: AbortSignal): Judge {
  return async (output, expected): Promise<CaseScore> => {
    const grader = models.assistant()?.id;
    if (!grader && models.get(agentModelId)?.provider === BUILTIN_PROVIDER) {
      return canonical(output) === canonical(expected)
        ? { score: 1, detail: 'judge (builtin model): the output equals the expected one' }
        : { score: 0, detail: 'judge (builtin model): the output differs from the expected one' };
    }
    const answer = await askModel(
      models,
      grader ?? agentModelId,
      { instructions: INSTRUCTIONS, input: { output, expected }, shape: grade },
      signal,
    );
    if (!answer.ok) return { score: 0, detail: `judge: ${answer.reason}` };
    const { score, reason } = answer.value;
    return { score, detail: `judge: ${answer.modelId} scored ${score}${reason ? `: ${reason}` : ''}` };
  };
}
