import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { Agent, AgentVersion, type AgentSettings } from '../../db/entities/Agent';
import { Workspace } from '../../db/entities/Workspace';
import type { ModelRegistry } from '../../domain/models/registry';
import type { ToolRegistry } from '../../domain/tools/registry';
import { roleAllows, type Scope } from '../../domain/identity/scopes';
import { DEFAULT_PRESET, findPreset } from '../../domain/agents/presets';
import type { Identity } from '../context';
import { errors, type ValidationIssue } from '../../domain/errors';
import { findPage, pageQuery } from '../../domain/pagination';
import { agentListOut, agentOut, createAgentBody, definitionOut, updateAgentBody, versionOut } from '../schemas/agents';
import { idParams } from '../schemas/common';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;
type Definition = Pick<AgentVersion, 'instructions' | 'modelId' | 'tools' | 'settings'>;

/** Loads a live agent of the caller's workspace; any other id is 404 (CONTRACT §1). */
export async function findAgent(em: EntityManager, workspaceId: string, id: string): Promise<Agent> {
  const agent = await em.findOne(Agent, { id, workspace: workspaceId, deletedAt: null });
  if (!agent) throw errors.notFound('Agent');
  return agent;
}

/**
 * spec §4.3 keeps an agent's instructions from a key that can only read agents (the definition route adds
 * them only with `runner:run`); every other route that shows them follows the same rule, widened to
 * callers who may change the agent (`agents:write`), since they must see what they edit.
 */
function mayReadInstructions(identity: Identity): boolean {
  return mayRun(identity) || allows(identity, 'agents:write');
}

function serialize(agent: Agent, v: Definition, withInstructions: boolean) {
  return {
    id: agent.id,
    name: agent.name,
    presetId: agent.presetId,
    version: agent.currentVersion,
    ...(withInstructions ? { instructions: v.instructions } : {}),
    modelId: v.modelId,
    tools: v.tools,
    settings: v.settings,
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  };
}

/** Agents with immutable numbered versions (CONTRACT §4). */
export function agentRoutes(deps: { models: ModelRegistry; tools: ToolRegistry }): RouteDef[] {
  const check = (d: Definition) => {
    const issues: ValidationIssue[] = [];
    if (!deps.models.get(d.modelId)) issues.push({ path: 'modelId', message: `Unknown model ${d.modelId}` });
    const known = new Set(deps.tools.names());
    d.tools.forEach((t, i) => !known.has(t) && issues.push({ path: `tools.${i}`, message: `Unknown tool ${t}` }));
    d.settings.approvalTools?.forEach(
      (t, i) => !known.has(t) && issues.push({ path: `settings.approvalTools.${i}`, message: `Unknown tool ${t}` }),
    );
    if (issues.length) throw errors.validation(issues);
  };
  const current = (em: EntityManager, agent: Agent) =>
    em.findOneOrFail(AgentVersion, { agent, version: agent.currentVersion });

  return [
    defineRoute<z.infer<typeof createAgentBody>>({
      method: 'POST',
      path: '/v1/agents',
      summary: 'Create an agent (version 1)',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:write' },
      body: createAgentBody,
      responses: { 201: { description: 'Created', schema: agentOut } },
      async handler(ctx, { body }) {
        const presetId = body.presetId ?? DEFAULT_PRESET;
        const preset = findPreset(presetId);
        if (!preset) throw errors.validation([{ path: 'presetId', message: `Unknown preset ${presetId}` }]);
        const def: Definition = {
          instructions: body.instructions === undefined ? preset.instructions : body.instructions,
          modelId: body.modelId ?? preset.modelId,
          tools: [...new Set(body.tools ?? preset.tools)],
          settings: { ...preset.settings, ...(body.settings ?? {}) } as AgentSettings,
        };
        check(def);
        const em = ctx.state.em;
        const agent = new Agent(em.getReference(Workspace, ctx.state.identity!.workspaceId), body.name, presetId, 1);
        em.persist([agent, new AgentVersion(agent, 1, def.instructions, def.modelId, def.tools, def.settings)]);
        await em.flush();
        ctx.status = 201;
        ctx.body = serialize(agent, def, true);
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/agents',
      summary: 'List agents, newest first',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      query: pageQuery,
      responses: { 200: { description: 'Agents', schema: agentListOut } },
      async handler(ctx, { query }) {
        const em = ctx.state.em;
        const { items, nextCursor } = await findPage(
          em,
          Agent,
          { workspace: ctx.state.identity!.workspaceId, deletedAt: null },
          query,
        );
        const versions = items.length
          ? await em.find(AgentVersion, { $or: items.map((a) => ({ agent: a.id, version: a.currentVersion })) })
          : [];
        const byAgent = new Map(versions.map((v) => [v.agent.id, v]));
        const withInstructions = mayReadInstructions(ctx.state.identity!);
        ctx.body = { agents: items.map((a) => serialize(a, byAgent.get(a.id)!, withInstructions)), nextCursor };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/agents/:id',
      summary: 'Get an agent at its current version',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      responses: { 200: { description: 'The agent', schema: agentOut } },
      async handler(ctx, { params }) {
        const agent = await findAgent(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        ctx.body = serialize(agent, await current(ctx.state.em, agent), mayReadInstructions(ctx.state.identity!));
      },
    }),
    defineRoute<z.infer<typeof updateAgentBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/agents/:id',
      summary: 'Rename an agent or change its definition (a definition change makes a new version)',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      body: updateAgentBody,
      responses: { 200: { description: 'The agent', schema: agentOut } },
      async handler(ctx, { params, body }) {
        const em = ctx.state.em;
        const agent = await findAgent(em, ctx.state.identity!.workspaceId, params.id);
        const was = await current(em, agent);
        const next: Definition = {
          instructions: body.instructions === undefined ? was.instructions : body.instructions,
          modelId: body.modelId ?? was.modelId,
          tools: body.tools ? [...new Set(body.tools)] : was.tools,
          settings: { ...was.settings, ...(body.settings ?? {}) },
        };
        if (body.name !== undefined) agent.name = body.name;
        let shown: Definition = was;
        if (
          JSON.stringify(next) !==
          JSON.stringify({
            instructions: was.instructions,
            modelId: was.modelId,
            tools: was.tools,
            settings: was.settings,
          })
        ) {
          check(next);
          agent.currentVersion += 1;
          shown = new AgentVersion(
            agent,
            agent.currentVersion,
            next.instructions,
            next.modelId,
            next.tools,
            next.settings,
          );
          em.persist(shown);
        }
        agent.updatedAt = new Date();
        await em.flush();
        ctx.body = serialize(agent, shown, true);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/agents/:id',
      summary: 'Delete an agent (its past runs stay readable)',
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        const agent = await findAgent(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        agent.deletedAt = new Date();
        await ctx.state.em.flush();
        ctx.status = 204;
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/agents/:id/versions',
      summary: "An agent's versions, newest first",
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      responses: { 200: { description: 'Versions', schema: z.object({ versions: z.array(versionOut) }) } },
      async handler(ctx, { params }) {
        const agent = await findAgent(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        const versions = await ctx.state.em.find(AgentVersion, { agent }, { orderBy: { version: 'desc' } });
        const withInstructions = mayReadInstructions(ctx.state.identity!);
        ctx.body = {
          versions: versions.map((v) => ({
            version: v.version,
            ...(withInstructions ? { instructions: v.instructions } : {}),
            modelId: v.modelId,
            tools: v.tools,
            settings: v.settings,
            createdAt: v.createdAt.toISOString(),
          })),
        };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/agents/:id/definition',
      summary: "The agent's definition; instructions and saved reads only with runner:run too (spec §4.3)",
      tag: 'agents',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      responses: { 200: { description: 'The definition', schema: definitionOut } },
      async handler(ctx, { params }) {
        const identity = ctx.state.identity!;
        const agent = await findAgent(ctx.state.em, identity.workspaceId, params.id);
        const v = await current(ctx.state.em, agent);
        const body: z.infer<typeof definitionOut> = {
          id: agent.id,
          name: agent.name,
          version: v.version,
          modelId: v.modelId,
          tools: v.tools,
          settings: v.settings,
        };
        if (mayRun(identity)) Object.assign(body, { instructions: v.instructions, savedReads: [] });
        ctx.body = body;
      },
    }),
  ];
}

function allows(identity: Identity, scope: Scope): boolean {
  return identity.actor === 'api_key' ? identity.scopes.includes(scope) : roleAllows(identity.role, scope);
}

function mayRun(identity: Identity): boolean {
  return allows(identity, 'runner:run');
}
