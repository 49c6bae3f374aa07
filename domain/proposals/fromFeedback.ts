import type { EntityManager } from '@mikro-orm/postgresql';
import type { Agent, AgentVersion } from '../../db/entities/Agent';
import type { ProposalChanges } from '../../db/entities/ImprovementProposal';
import { errors } from '../errors';

/** At most this many corrected examples go into one proposal: the most recent ones. */
export const MAX_EXAMPLES = 20;
/** Each example's input and corrected output are cut to this many characters of JSON. */
const MAX_EXAMPLE_CHARS = 2000;

const clip = (value: unknown) => {
  const json = JSON.stringify(value) ?? 'null';
  return json.length > MAX_EXAMPLE_CHARS ? `${json.slice(0, MAX_EXAMPLE_CHARS)}…` : json;
};

/**
 * Drafts a proposal from the agent's feedback that carries a `correctedOutput` (docs/api/proposals.md):
 * the most recent MAX_EXAMPLES such feedback rows, oldest first, are appended to the base version's
 * instructions as examples (the run's input and the corrected output). Deterministic: the same
 * feedback and version always draft the same change. Throws 409 `conflict` when the agent has no such
 * feedback: there is nothing to draft from until some is given.
 */
export async function draftFromFeedback(
  em: EntityManager,
  agent: Agent,
  base: AgentVersion,
): Promise<{ changes: ProposalChanges; rationale: string; sourceFeedbackIds: string[] }> {
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
  const examples = rows
    .map((row, i) => `Example ${i + 1}\nInput: ${clip(row.input)}\nCorrect output: ${clip(row.corrected)}`)
    .join('\n\n');
  const section = `Corrected examples from feedback (answer like these):\n\n${examples}`;
  const instructions = base.instructions ? `${base.instructions}\n\n${section}` : section;
  return {
    changes: { instructions },
    rationale: `Adds ${rows.length} corrected example${rows.length === 1 ? '' : 's'} from feedback to the instructions`,
    sourceFeedbackIds: rows.map((row) => row.id),
  };
}
