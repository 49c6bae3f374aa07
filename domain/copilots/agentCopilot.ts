import { ImprovementProposal, type ProposalChanges } from '../../db/entities/ImprovementProposal';
import { mayReadInstructions } from '../agents/access';
import type { AgentDeps } from '../agents/agents';
import { currentVersion, findAgent } from '../agents/find';
import type { ConversationDeps } from '../conversations';
import { ApiError } from '../errors';
import type { Identity } from '../identity/identity';
import { presentProposal, type ProposalView } from '../proposals/presenters';
import { createProposal } from '../proposals/proposals';
import { copilotTurn, isRecord } from './turn';

export interface AgentCopilotReply {
  conversationId: string;
  reply: string;
  runId: string | null;
  proposal: ProposalView | null;
}

/**
 * The agent copilot (docs/api/copilots.md): a turn of the agent's copilot conversation, the agent's
 * current definition in its context. A change the copilot suggests becomes an improvement proposal
 * (domain/proposals), once per turn: its rationale names the turn's run, so a repeated message finds it.
 * Throws `not_found` for an agent not in the workspace, and what a turn throws.
 */
export async function askAgentCopilot(
  deps: ConversationDeps & { agents: AgentDeps },
  identity: Identity,
  agentId: string,
  body: { message: string; conversationId?: string },
  messageId: string | null,
): Promise<AgentCopilotReply> {
  const { em } = deps;
  const agent = await findAgent(em, identity.workspaceId, agentId);
  const version = await currentVersion(em, agent);
  const turn = await copilotTurn(deps, identity, {
    channel: 'agent_copilot',
    subjectId: agent.id,
    context: {
      copilot: 'agent',
      agent: {
        id: agent.id,
        name: agent.name,
        version: version.version,
        // whether, not what: the turn's input is shown to every reader of runs, who may not read instructions
        hasInstructions: Boolean(version.instructions),
        modelId: version.modelId,
        tools: version.tools,
      },
    },
    text: body.message,
    conversationId: body.conversationId,
    messageId,
  });
  const base = { conversationId: turn.conversationId, reply: turn.reply, runId: turn.runId };
  const suggested = isRecord(turn.output) && isRecord(turn.output.proposal) ? turn.output.proposal : null;
  if (!suggested || !turn.runId || !isRecord(suggested.changes)) return { ...base, proposal: null };

  const tag = `(copilot run ${turn.runId})`;
  const prior = await em.fork().findOne(ImprovementProposal, { agentId: agent.id, rationale: { $like: `%${tag}` } });
  if (prior) return { ...base, proposal: presentProposal(prior, mayReadInstructions(identity)) };
  try {
    const proposal = await createProposal(em.fork(), deps.agents, identity, agent.id, {
      changes: suggested.changes as ProposalChanges,
      rationale: `${typeof suggested.rationale === 'string' ? suggested.rationale : 'Suggested by the agent copilot'} ${tag}`,
    });
    return { ...base, proposal };
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'validation_error') throw err;
    return { ...base, reply: `${turn.reply} (It cannot be proposed: ${issuesOf(err)})`, proposal: null };
  }
}

function issuesOf(err: ApiError): string {
  const issues = (err.details?.issues ?? []) as Array<{ message: string }>;
  return issues.map((i) => i.message).join('; ') || err.message;
}
