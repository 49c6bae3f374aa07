import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Agent, AgentVersion } from '../../db/entities/Agent';
import type { ProposalChanges } from '../../db/entities/ImprovementProposal';
import { errors } from '../errors';
import { askModel } from '../models/askModel';
import type { ModelRegistry } from '../models/registry';

/** The models a draft may ask: the assistant model, when one is configured. */
export type Drafter = Pick<ModelRegistry, 'assistant' | 'turn'>;

export interface Draft {
  changes: ProposalChanges;
  rationale: string;
  sourceFeedbackIds: string[];
}

const PROMPT = `You improve the instructions of an AI agent from people's corrections. The user message is JSON:
{ "instructions": "<the agent's current instructions, or null>", "examples": [{ "input": "<a run's input, JSON>", "correctOutput": "<what the output should have been, JSON>" }] }.
Write new instructions that keep what the current ones ask and make the agent answer like the corrected examples.
Answer with ONE JSON object and nothing else: { "instructions": "<the complete new instructions>", "rationale": "<one or two sentences: what changed and why>" }`;

const drafted = z.object({
  instructions: z.string().trim().min(1).max(20_000),
  rationale: z.string().trim().min(1).max(2000),
});

/** At most this many corrected examples go into one proposal: the most recent ones. */
export const MAX_EXAMPLES = 20;
/** Each example's input and corrected output are cut to this many characters of JSON. */
const MAX_EXAMPLE_CHARS = 2000;

const clip = (value: unknown) => {
  const json = JSON.stringify(value) ?? 'null';
  return json.length > MAX_EXAMPLE_CHARS ? `${json.slice(0, MAX_EXAMPLE_CHARS)}…` : json;
};

/**
 * Drafts a proposal from the agent's feedback that carries a `correctedOutput` (docs/api/proposals.md),
 * from the most recent MAX_EXAMPLES such feedback rows, oldest first. With an assistant model the model
 * rewrites the instructions from the current ones and the examples (its answer checked with zod); without
 * one, or when its answer does not fit or its call fails, the examples (the run's input and the corrected
 * output) are appended to the base version's instructions, deterministically, and the rationale says why
 * the model's draft was not used. Throws 409 `conflict` when the agent has no such feedback: there is
 * nothing to draft from until some is given.
 */
export async function draftFromFeedback(
  em: EntityManager,
  agent: Agent,
  base: AgentVersion,
  models?: Drafter,
): Promise<Draft> {
  const rows = await em.getConnection().execute<Array<{ id: string; input: unknown; corrected: unknown }>>(
    `select * from (
       select f.id, r.input, f.corrected_output as corrected, f.created_at
         from feedback f join runs r on r.id = f.run_id
        where r.agent_id = ? and f.workspace_id = ? and f.corrected_output is not null
          and f.corrected_output <> 'null'::jsonb
        order by f.created_at desc, f.id desc limit ?) latest
     order by created_at, id`,
    [agent.id, agent.workspace.id, MAX_EXAMPLES],
  );
  if (rows.length === 0) {
    throw errors.conflict('This agent has no feedback with a correctedOutput to draft a proposal from');
  }
  const sourceFeedbackIds = rows.map((row) => row.id);
  const count = `${rows.length} corrected example${rows.length === 1 ? '' : 's'}`;
  const assistant = models?.assistant();
  let unusable = '';
  if (models && assistant) {
    const input = {
      instructions: base.instructions,
      examples: rows.map((row) => ({ input: clip(row.input), correctOutput: clip(row.corrected) })),
    };
    const answer = await askModel(models, assistant.id, { instructions: PROMPT, input, shape: drafted });
    if (answer.ok) {
      return {
        changes: { instructions: answer.value.instructions },
        rationale: `${answer.value.rationale} (drafted by ${assistant.id} from ${count})`,
        sourceFeedbackIds,
      };
    }
    unusable = ` (the assistant model's draft was not used: ${answer.reason.slice(0, 500)})`;
  }
  const examples = rows
    .map((row, i) => `Example ${i + 1}\nInput: ${clip(row.input)}\nCorrect output: ${clip(row.corrected)}`)
    .join('\n\n');
  const section = `Corrected examples from feedback (answer like these):\n\n${examples}`;
  const instructions = base.instructions ? `${base.instructions}\n\n${section}` : section;
  return {
    changes: { instructions },
    rationale: `Adds ${count} from feedback to the instructions${unusable}`,
    sourceFeedbackIds,
  };
}
