import type { Agent, AgentSettings, AgentVersion } from '../../db/entities/Agent';

/** What makes up an agent version: the part a change of which makes a new version. */
export type Definition = Pick<AgentVersion, 'instructions' | 'modelId' | 'tools' | 'settings'>;

/** An agent at one version; `instructions` only for callers allowed to read them. */
export interface AgentView {
  id: string;
  name: string;
  presetId: string;
  /** The project the agent belongs to, or null (docs/api/projects.md). */
  projectId: string | null;
  /** Saved tables the agent may read (docs/api/data-sources.md). */
  savedTableIds: string[];
  version: number;
  instructions?: string | null;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
  createdAt: string;
  updatedAt: string;
}

export interface AgentVersionView {
  version: number;
  instructions?: string | null;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
  createdAt: string;
}

/** The definition a runner fetches; instructions and saved reads only for callers with `runner:run`. */
export interface DefinitionView {
  id: string;
  name: string;
  version: number;
  modelId: string;
  tools: string[];
  settings: AgentSettings;
  instructions?: string | null;
  savedReads?: SavedRead[];
}

/** A linked saved table's read, for a runner that reads the source itself. */
export interface SavedRead {
  savedTableId: string;
  name: string;
  read: Record<string, unknown>;
}

export function presentAgent(agent: Agent, v: Definition, withInstructions: boolean): AgentView {
  return {
    id: agent.id,
    name: agent.name,
    presetId: agent.presetId,
    projectId: agent.project?.id ?? null,
    savedTableIds: agent.savedTableIds,
    version: agent.currentVersion,
    ...(withInstructions ? { instructions: v.instructions } : {}),
    modelId: v.modelId,
    tools: v.tools,
    settings: v.settings,
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  };
}

export function presentVersion(v: AgentVersion, withInstructions: boolean): AgentVersionView {
  return {
    version: v.version,
    ...(withInstructions ? { instructions: v.instructions } : {}),
    modelId: v.modelId,
    tools: v.tools,
    settings: v.settings,
    createdAt: v.createdAt.toISOString(),
  };
}

export function presentDefinition(agent: Agent, v: AgentVersion, withInstructions: boolean): DefinitionView {
  const body: DefinitionView = {
    id: agent.id,
    name: agent.name,
    version: v.version,
    modelId: v.modelId,
    tools: v.tools,
    settings: v.settings,
  };
  if (withInstructions) Object.assign(body, { instructions: v.instructions, savedReads: [] });
  return body;
}
