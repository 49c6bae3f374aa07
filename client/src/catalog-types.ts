/** The built-in catalogues an agent is made from: presets, models with their prices, tools (docs/api/agents.md). */
import type { AgentSettings } from './types.js';

/** A preset: the defaults a new agent takes for whatever `agents.create` leaves out. */
export interface Preset {
  id: string;
  name: string;
  description: string;
  modelId: string;
  instructions: string | null;
  tools: string[];
  settings: AgentSettings;
}

/** What a model costs, in USD: per million input and output tokens, and per run. */
export interface ModelPricing {
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
  perRunUsd: number;
}

/** A model an agent may name as `modelId` (`builtin/...`, or `openai/<name>` when a provider is configured). */
export interface Model {
  id: string;
  provider: string;
  pricing: ModelPricing;
}

/** A tool an agent may list in `tools`, with the JSON Schema of its arguments. */
export interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
