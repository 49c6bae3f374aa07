import { z } from 'zod';
import { text, trimmedText } from './text';
import { pageQuery } from '../../domain/shared/pagination';
import { uuid } from './common';
import { VOICES } from '../../domain/agents/voices';
import { approvalPolicyOut, approvalPolicySchema } from './approvalPolicy';

/** What an agent definition may name: the tools, models and presets this service has. */
export interface AgentCatalog {
  tools: string[];
  models: string[];
  presets: string[];
}

// A name the catalog lacks would only ever be 400 (domain/agents/agents.ts); an enum says so in the
// document. An empty catalog leaves the field a plain string, since an empty enum accepts nothing.
const oneOf = (names: string[], max: number) => (names.length ? z.enum(names as [string, ...string[]]) : text(1, max));

/** The project an agent belongs to; `null` takes it out of its project (docs/api/projects.md). */
const projectId = uuid.nullable().optional();

/** Saved tables of the workspace the agent may read with `saved_table_rows` (docs/api/data-sources.md). */
const savedTableIds = z.array(uuid).max(50).optional();

/**
 * The create and update bodies of agents for `catalog`. Update is strict: it must change something, and
 * with unknown keys dropped silently `{ "nme": "x" }` would be an accepted no-op, so they are refused.
 */
export function agentBodies(catalog: AgentCatalog) {
  const tool = oneOf(catalog.tools, 100);
  const settingsIn = z.object({
    approval: z.enum(['never', 'before_output', 'before_tools']).optional(),
    approvalTools: z.array(tool).max(50).optional(),
    // who answers its approval gates (docs/api/runs.md#approval-policies); null removes the policy
    approvalPolicy: approvalPolicySchema.nullable().optional(),
    review: z.boolean().optional(),
    maxSteps: z.number().int().min(1).max(200).optional(),
    // a phone agent's voice (docs/api/phone.md); an unknown one is 400
    voice: z.enum(VOICES.map((v) => v.id) as [string, ...string[]]).optional(),
    // live output connections of the workspace (docs/api/output-connections.md); an unknown one is 404
    saveOutput: z
      .array(uuid)
      .max(20)
      .transform((ids) => [...new Set(ids)])
      .optional(),
  });
  const definition = {
    instructions: text(0, 100_000).nullable().optional(),
    modelId: oneOf(catalog.models, 200).optional(),
    tools: z.array(tool).max(50).optional(),
    settings: settingsIn.optional(),
  };
  return {
    /** An improvement proposal's `changes` (docs/api/proposals.md): a definition change, at least one field. */
    proposalChanges: z
      .strictObject(definition)
      .refine((b) => Object.keys(b).length > 0, 'Nothing to change')
      .meta({ minProperties: 1 }),
    createAgentBody: z.object({
      name: trimmedText(200),
      presetId: oneOf(catalog.presets, 100).optional(),
      projectId,
      savedTableIds,
      ...definition,
    }),
    updateAgentBody: z
      .object({ name: trimmedText(200).optional(), projectId, savedTableIds, ...definition })
      .strict()
      .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
      .meta({ minProperties: 1 }),
  };
}
export type AgentBodies = ReturnType<typeof agentBodies>;

export const settingsOut = z.object({
  approval: z.enum(['never', 'before_output', 'before_tools']),
  approvalTools: z.array(z.string()).optional(),
  approvalPolicy: approvalPolicyOut.nullable().optional(),
  review: z.boolean(),
  maxSteps: z.number().int(),
  saveOutput: z.array(z.string()).optional(),
  voice: z.string().optional(),
});

export const agentOut = z.object({
  id: z.uuid(),
  name: z.string(),
  presetId: z.string(),
  projectId: z.uuid().nullable(),
  savedTableIds: z.array(z.uuid()),
  version: z.number().int(),
  /** Only for callers with `runner:run` or `agents:write` (docs/api/agents.md). */
  instructions: z.string().nullable().optional(),
  modelId: z.string(),
  tools: z.array(z.string()),
  settings: settingsOut,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** `GET /v1/agents`: a page, optionally of one project's agents. */
export const agentListQuery = pageQuery.extend({ projectId: uuid.optional() });

export const agentListOut = z.object({ agents: z.array(agentOut), nextCursor: z.string().nullable() });

export const versionOut = z.object({
  version: z.number().int(),
  instructions: z.string().nullable().optional(),
  modelId: z.string(),
  tools: z.array(z.string()),
  settings: settingsOut,
  createdAt: z.iso.datetime(),
});

export const versionListOut = z.object({ versions: z.array(versionOut), nextCursor: z.string().nullable() });

export const definitionOut = z.object({
  id: z.uuid(),
  name: z.string(),
  version: z.number().int(),
  modelId: z.string(),
  tools: z.array(z.string()),
  settings: settingsOut,
  instructions: z.string().nullable().optional(),
  savedReads: z
    .array(z.object({ savedTableId: z.uuid(), name: z.string(), read: z.record(z.string(), z.unknown()) }))
    .optional(),
});
