import type { AgentSettings } from '../../db/entities/Agent';

export interface Preset {
  id: string;
  name: string;
  description: string;
  modelId: string;
  instructions: string | null;
  tools: string[];
  settings: AgentSettings;
}

const base: AgentSettings = { approval: 'never', review: false, maxSteps: 25 };

/** Built-in presets (docs/api/agents.md): defaults for a new agent. `general-assistant` when none is named. */
export const PRESETS: Preset[] = [
  {
    id: 'general-assistant',
    name: 'General assistant',
    description: 'Answers with the built-in echo model; no tools, no gates.',
    modelId: 'builtin/echo',
    instructions: null,
    tools: [],
    settings: base,
  },
  {
    id: 'scripted',
    name: 'Scripted agent',
    description: 'Replays input.script with builtin/scripted; can ask questions and call http_request.',
    modelId: 'builtin/scripted',
    instructions: null,
    tools: ['ask_user', 'http_request'],
    settings: base,
  },
  {
    id: 'reviewed-writer',
    name: 'Reviewed writer',
    description: 'Scripted agent whose output waits for approval and then for review.',
    modelId: 'builtin/scripted',
    instructions: null,
    tools: ['ask_user'],
    settings: { ...base, approval: 'before_output', review: true },
  },
  {
    id: 'finance-agent',
    name: 'Finance agent',
    description: 'Runs reconciliations and reports started by the finance routes; applying matches waits for approval.',
    modelId: 'builtin/scripted',
    instructions: null,
    tools: ['finance_reconcile', 'finance_apply_matches', 'finance_report'],
    settings: { ...base, approval: 'before_tools', approvalTools: ['finance_apply_matches'], maxSteps: 10 },
  },
];

export const DEFAULT_PRESET = 'general-assistant';

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
