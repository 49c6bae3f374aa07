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
    id: 'tutor',
    name: 'Tutor',
    description:
      'Teaches a topic in tutor sessions with builtin/tutor (the assistant model answers when one is configured).',
    modelId: 'builtin/tutor',
    instructions: null,
    tools: [],
    settings: base,
  },
  // Phone presets (docs/api/phone.md): an agent built on one is a phone agent, and creating, changing or
  // deleting it also needs `phone:manage`.
  {
    id: 'phone-receptionist',
    name: 'Phone receptionist',
    description: 'Answers a phone number; each caller turn is one agent turn (builtin/echo by default).',
    modelId: 'builtin/echo',
    instructions: 'You answer the phone for the business: greet the caller and help briefly.',
    tools: [],
    settings: { ...base, voice: 'Polly.Joanna' },
  },
  {
    id: 'phone-booking',
    name: 'Phone booking agent',
    description: 'Answers a phone number and books appointments with calendar_free_slots and calendar_book.',
    modelId: 'builtin/scripted',
    instructions: 'You book appointments: offer free slots and book the one the caller chooses.',
    tools: ['calendar_free_slots', 'calendar_book'],
    settings: { ...base, voice: 'Polly.Matthew' },
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

/** The presets whose agents are phone agents (docs/api/phone.md). */
export const PHONE_PRESETS = ['phone-receptionist', 'phone-booking'];

export function isPhonePreset(id: string): boolean {
  return PHONE_PRESETS.includes(id);
}

export const DEFAULT_PRESET = 'general-assistant';

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
