import { PRESETS, type Preset } from '../agents/presets';
import type { ModelRegistry } from '../models/registry';
import type { ModelInfo } from '../models/types';
import type { ToolRegistry } from '../tools/registry';
import type { ToolSpec } from '../../workflows/agentTurn';

/** The built-in catalogues an agent is made from (docs/api/agents.md): presets, models with prices, tools. */
export function listPresets(): { presets: Preset[] } {
  return { presets: PRESETS };
}

export function listModels(models: Pick<ModelRegistry, 'list'>): { models: ModelInfo[] } {
  return { models: models.list() };
}

export function listTools(tools: Pick<ToolRegistry, 'list'>): { tools: ToolSpec[] } {
  return { tools: tools.list() };
}
