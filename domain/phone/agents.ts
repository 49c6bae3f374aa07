import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent, AgentVersion } from '../../db/entities/Agent';
import { PhoneNumber } from '../../db/entities/PhoneNumber';
import { mayReadInstructions } from '../agents/access';
import {
  createAgent,
  deleteAgent,
  getAgent,
  updateAgent,
  type AgentDeps,
  type DefinitionInput,
} from '../agents/agents';
import { presentAgent, type AgentView } from '../agents/presenters';
import { isPhonePreset, PHONE_PRESETS } from '../agents/presets';
import { errors } from '../errors';
import { requireScope } from '../identity/credentials';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';

/** A number that a phone agent answers. */
export interface PhoneAgentNumber {
  id: string;
  e164: string;
  provider: string;
}

/** A phone agent (docs/api/phone.md#phone-agents): the agent as `/v1/agents` shows it, with its numbers. */
export type PhoneAgentView = AgentView & { numbers: PhoneAgentNumber[] };

/**
 * The numbers each agent answers (removed numbers left out), oldest first: one query for a page of agents.
 */
async function numbersOf(em: EntityManager, agentIds: string[]): Promise<Map<string, PhoneAgentNumber[]>> {
  const byAgent = new Map<string, PhoneAgentNumber[]>(agentIds.map((id) => [id, []]));
  if (agentIds.length === 0) return byAgent;
  const rows = await em.find(
    PhoneNumber,
    { agent: { $in: agentIds }, deletedAt: null },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  for (const n of rows) byAgent.get(n.agent.id)?.push({ id: n.id, e164: n.e164, provider: n.provider });
  return byAgent;
}

/**
 * A live agent of the workspace built on a phone preset. Any other agent is `not_found` here, as an
 * unknown id is: these routes know phone agents only.
 */
async function findPhoneAgent(em: EntityManager, workspaceId: string, id: string): Promise<Agent> {
  const agent = await em.findOne(Agent, { id, workspace: workspaceId, deletedAt: null });
  if (!agent || !isPhonePreset(agent.presetId)) throw errors.notFound('Phone agent');
  return agent;
}

async function withNumbers(em: EntityManager, view: AgentView): Promise<PhoneAgentView> {
  return { ...view, numbers: (await numbersOf(em, [view.id])).get(view.id) ?? [] };
}

/**
 * A phone agent is an agent: changing one takes what changing any agent takes, `agents:write`, beside the
 * `phone:manage` of the route (and of the agents' own rule for phone presets, domain/agents/access.ts).
 */
function requireAgentChange(identity: Identity): void {
  requireScope(identity, 'agents:write');
}

/** One page of the workspace's phone agents, newest first, each with its numbers. */
export async function listPhoneAgents(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ agents: PhoneAgentView[]; nextCursor: string | null }> {
  const where = { workspace: identity.workspaceId, deletedAt: null, presetId: { $in: PHONE_PRESETS } };
  const { items, nextCursor } = await findPage(em, Agent, where, page);
  const versions = items.length
    ? await em.find(AgentVersion, { $or: items.map((a) => ({ agent: a.id, version: a.currentVersion })) })
    : [];
  const byAgent = new Map(versions.map((v) => [v.agent.id, v]));
  const numbers = await numbersOf(
    em,
    items.map((a) => a.id),
  );
  const withInstructions = mayReadInstructions(identity);
  return {
    agents: items.map((a) => ({
      ...presentAgent(a, byAgent.get(a.id)!, withInstructions),
      numbers: numbers.get(a.id) ?? [],
    })),
    nextCursor,
  };
}

/** A phone agent with its numbers. @throws `not_found`, also for an agent that is not a phone agent */
export async function getPhoneAgent(em: EntityManager, identity: Identity, id: string): Promise<PhoneAgentView> {
  await findPhoneAgent(em, identity.workspaceId, id);
  return withNumbers(em, await getAgent(em, identity, id));
}

/**
 * Creates an agent on a phone preset through the agents' own operation (same defaults, checks and versions).
 * @throws `forbidden` without `agents:write` (or `phone:manage`); `validation_error` for a preset that is not
 *   a phone preset, or an unknown model, tool or voice
 */
export async function createPhoneAgent(
  em: EntityManager,
  deps: AgentDeps,
  identity: Identity,
  input: DefinitionInput & { name: string; presetId: string; projectId?: string | null; savedTableIds?: string[] },
): Promise<PhoneAgentView> {
  requireAgentChange(identity);
  if (!isPhonePreset(input.presetId)) {
    throw errors.validation([{ path: 'presetId', message: `Not a phone preset: ${input.presetId}` }]);
  }
  return withNumbers(em, await createAgent(em, deps, identity, input));
}

/**
 * Changes a phone agent as `PATCH /v1/agents/{id}` does (a definition change is a new version).
 * @throws `not_found` for any agent that is not a phone agent of the workspace; `forbidden`; `validation_error`
 */
export async function updatePhoneAgent(
  em: EntityManager,
  deps: AgentDeps,
  identity: Identity,
  id: string,
  input: DefinitionInput & { name?: string; projectId?: string | null; savedTableIds?: string[] },
): Promise<PhoneAgentView> {
  await findPhoneAgent(em, identity.workspaceId, id);
  requireAgentChange(identity);
  return withNumbers(em, await updateAgent(em, deps, identity, id, input));
}

/** Deletes a phone agent as `DELETE /v1/agents/{id}` does. @throws `not_found`; `forbidden` */
export async function deletePhoneAgent(em: EntityManager, identity: Identity, id: string): Promise<void> {
  await findPhoneAgent(em, identity.workspaceId, id);
  requireAgentChange(identity);
  await deleteAgent(em, identity, id);
}
