import { z } from 'zod';

export const settingsIn = z.object({
  approval: z.enum(['never', 'before_output', 'before_tools']).optional(),
  approvalTools: z.array(z.string().min(1).max(100)).max(50).optional(),
  review: z.boolean().optional(),
  maxSteps: z.number().int().min(1).max(200).optional(),
});

const definition = {
  instructions: z.string().max(100_000).nullable().optional(),
  modelId: z.string().min(1).max(200).optional(),
  tools: z.array(z.string().min(1).max(100)).max(50).optional(),
  settings: settingsIn.optional(),
};

export const createAgentBody = z.object({
  name: z.string().trim().min(1).max(200),
  presetId: z.string().min(1).max(100).optional(),
  ...definition,
});

export const updateAgentBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), ...definition })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update');

export const settingsOut = z.object({
  approval: z.enum(['never', 'before_output', 'before_tools']),
  approvalTools: z.array(z.string()).optional(),
  review: z.boolean(),
  maxSteps: z.number().int(),
});

export const agentOut = z.object({
  id: z.uuid(),
  name: z.string(),
  presetId: z.string(),
  version: z.number().int(),
  /** Only for callers with `runner:run` or `agents:write` (docs/api/agents.md). */
  instructions: z.string().nullable().optional(),
  modelId: z.string(),
  tools: z.array(z.string()),
  settings: settingsOut,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

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
  savedReads: z.array(z.unknown()).optional(),
});
