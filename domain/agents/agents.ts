import type { EntityManager } from '@mikro-orm/postgresql';
import { Agent, AgentVersion, type AgentSettings } from '../../db/entities/Agent';
import { Workspace } from '../../db/entities/Workspace';
import { errors, type ValidationIssue } from '../errors';
import type { Identity } from '../identity/identity';
import type { ModelRegistry } from '../models/registry';
import { findPage } from '../shared/pagination';
import { unknownConnections } from './outputConnections';
import { projectFromBody } from '../projects/find';
import { savedReads, savedTablesFromBody } from '../savedTables/links';
import type { ToolRegistry } from '../tools/registry';
import { mayReadInstructions, mayRun, requirePhoneAccess } from './access';
import { isVoice } from './voices';
import { currentVersion, findAgent } from './find';
import { DEFAULT_PRESET, findPreset } from './presets';
import {
  presentAgent,
  presentDefinition,
  presentVersion,
  type AgentVersionView,
  type AgentView,
  type Definition,
  type DefinitionView,
} from './presenters';

/** What agent operations check a definition against: the known models and tools. */
export interface AgentDeps {
  models: Pick<ModelRegistry, 'get'>;
  tools: Pick<ToolRegistry, 'names'>;
}

/** The definition fields a caller may set; what is left out keeps its preset or current value. */
export interface DefinitionInput {
  instructions?: string | null;
  modelId?: string;
  tools?: string[];
  settings?: Partial<AgentSettings>;
}

/** Throws `validation_error` naming every unknown model and tool of the definition. */
export function checkDefinition(deps: AgentDeps, d: Definition): void {
  const issues: ValidationIssue[] = [];
  if (!deps.models.get(d.modelId)) issues.push({ path: 'modelId', message: `Unknown model ${d.modelId}` });
  const known = new Set(deps.tools.names());
  d.tools.forEach((t, i) => !known.has(t) && issues.push({ path: `tools.${i}`, message: `Unknown tool ${t}` }));
  if (d.settings.voice !== undefined && !isVoice(d.settings.voice)) {
    issues.push({ path: 'settings.voice', message: `Unknown voice ${d.settings.voice}` });
  }
  d.settings.approvalTools?.forEach(
    (t, i) => !known.has(t) && issues.push({ path: `settings.approvalTools.${i}`, message: `Unknown tool ${t}` }),
  );
  if (issues.length) throw errors.validation(issues);
}

/**
 * The save-output connections a definition lists must be live connections of the workspace. Ids in a
 * body that name nothing are 400 at their path, like a `projectId` (docs/api/output-connections.md).
 */
async function checkSaveOutput(em: EntityManager, workspaceId: string, ids: string[] | undefined): Promise<void> {
  const unknown = await unknownConnections(em, workspaceId, ids ?? []);
  if (unknown.length === 0) return;
  throw errors.validation(
    unknown.map((id) => ({
      path: `settings.saveOutput.${ids!.indexOf(id)}`,
      message: `Unknown output connection ${id}`,
    })),
  );
}

const sameDefinition = (a: Definition, b: Definition): boolean =>
  JSON.stringify({ instructions: a.instructions, modelId: a.modelId, tools: a.tools, settings: a.settings }) ===
  JSON.stringify({ instructions: b.instructions, modelId: b.modelId, tools: b.tools, settings: b.settings });

/**
 * Creates an agent at version 1 from a preset (`general-assistant` when none is named), overridden by
 * the fields given. Throws `validation_error` for an unknown preset, model or tool.
 */
export async function createAgent(
  em: EntityManager,
  deps: AgentDeps,
  identity: Identity,
  input: DefinitionInput & { name: string; presetId?: string; projectId?: string | null; savedTableIds?: string[] },
): Promise<AgentView> {
  const presetId = input.presetId ?? DEFAULT_PRESET;
  const preset = findPreset(presetId);
  if (!preset) throw errors.validation([{ path: 'presetId', message: `Unknown preset ${presetId}` }]);
  requirePhoneAccess(identity, presetId);
  const def: Definition = {
    instructions: input.instructions === undefined ? preset.instructions : input.instructions,
    modelId: input.modelId ?? preset.modelId,
    tools: [...new Set(input.tools ?? preset.tools)],
    settings: { ...preset.settings, ...(input.settings ?? {}) } as AgentSettings,
  };
  checkDefinition(deps, def);
  await checkSaveOutput(em, identity.workspaceId, input.settings?.saveOutput);
  const project = await projectFromBody(em, identity.workspaceId, input.projectId);
  const agent = new Agent(em.getReference(Workspace, identity.workspaceId), input.name, presetId, 1);
  agent.project = project ?? null;
  agent.savedTableIds = await savedTablesFromBody(em, identity.workspaceId, input.savedTableIds ?? []);
  em.persist([agent, new AgentVersion(agent, 1, def.instructions, def.modelId, def.tools, def.settings)]);
  await em.flush();
  return presentAgent(agent, def, true);
}

/** One page of the workspace's agents at their current versions, newest first; `projectId` keeps one project's. */
export async function listAgents(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string; projectId?: string },
): Promise<{ agents: AgentView[]; nextCursor: string | null }> {
  const where = {
    workspace: identity.workspaceId,
    deletedAt: null,
    ...(page.projectId ? { project: page.projectId } : {}),
  };
  const { items, nextCursor } = await findPage(em, Agent, where, page);
  const versions = items.length
    ? await em.find(AgentVersion, { $or: items.map((a) => ({ agent: a.id, version: a.currentVersion })) })
    : [];
  const byAgent = new Map(versions.map((v) => [v.agent.id, v]));
  const withInstructions = mayReadInstructions(identity);
  return { agents: items.map((a) => presentAgent(a, byAgent.get(a.id)!, withInstructions)), nextCursor };
}

/** An agent at its current version. Throws `not_found`. */
export async function getAgent(em: EntityManager, identity: Identity, id: string): Promise<AgentView> {
  const agent = await findAgent(em, identity.workspaceId, id);
  return presentAgent(agent, await currentVersion(em, agent), mayReadInstructions(identity));
}

/**
 * Renames an agent and/or changes its definition. A definition that differs from the current one
 * becomes a new immutable version; a rename alone does not. Throws `not_found`, or `validation_error`
 * for an unknown model or tool.
 */
export async function updateAgent(
  em: EntityManager,
  deps: AgentDeps,
  identity: Identity,
  id: string,
  input: DefinitionInput & { name?: string; projectId?: string | null; savedTableIds?: string[] },
): Promise<AgentView> {
  const agent = await findAgent(em, identity.workspaceId, id);
  requirePhoneAccess(identity, agent.presetId);
  if (input.savedTableIds !== undefined) {
    agent.savedTableIds = await savedTablesFromBody(em, identity.workspaceId, input.savedTableIds);
  }
  await checkSaveOutput(em, identity.workspaceId, input.settings?.saveOutput);
  const project = await projectFromBody(em, identity.workspaceId, input.projectId);
  if (project !== undefined) agent.project = project;
  const was = await currentVersion(em, agent);
  const next: Definition = {
    instructions: input.instructions === undefined ? was.instructions : input.instructions,
    modelId: input.modelId ?? was.modelId,
    tools: input.tools ? [...new Set(input.tools)] : was.tools,
    settings: { ...was.settings, ...(input.settings ?? {}) },
  };
  if (input.name !== undefined) agent.name = input.name;
  let shown: Definition = was;
  if (!sameDefinition(next, was)) {
    checkDefinition(deps, next);
    agent.currentVersion += 1;
    shown = new AgentVersion(agent, agent.currentVersion, next.instructions, next.modelId, next.tools, next.settings);
    em.persist(shown);
  }
  agent.updatedAt = new Date();
  await em.flush();
  return presentAgent(agent, shown, true);
}

/** Deletes an agent; its past runs stay readable. Throws `not_found`. */
export async function deleteAgent(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const agent = await findAgent(em, identity.workspaceId, id);
  requirePhoneAccess(identity, agent.presetId);
  agent.deletedAt = new Date();
  await em.flush();
}

/**
 * One page of an agent's versions, newest first (a version is made after the one before it).
 * Throws `not_found`, or `validation_error` for a malformed cursor.
 */
export async function listAgentVersions(
  em: EntityManager,
  identity: Identity,
  id: string,
  page: { limit: number; cursor?: string },
): Promise<{ versions: AgentVersionView[]; nextCursor: string | null }> {
  const agent = await findAgent(em, identity.workspaceId, id);
  const { items, nextCursor } = await findPage(em, AgentVersion, { agent: agent.id }, page);
  const withInstructions = mayReadInstructions(identity);
  return { versions: items.map((v) => presentVersion(v, withInstructions)), nextCursor };
}

/** The agent's current definition, for a runner. Throws `not_found`. */
export async function getAgentDefinition(em: EntityManager, identity: Identity, id: string): Promise<DefinitionView> {
  const agent = await findAgent(em, identity.workspaceId, id);
  const body = presentDefinition(agent, await currentVersion(em, agent), mayRun(identity));
  if (body.savedReads) body.savedReads = await savedReads(em, identity.workspaceId, agent.savedTableIds);
  return body;
}
