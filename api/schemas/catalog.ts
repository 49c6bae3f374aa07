import { z } from 'zod';
import { settingsOut } from './agents';

/** `GET /v1/presets`: the defaults each built-in preset gives a new agent (domain/agents/presets.ts). */
export const presetListOut = z.object({
  presets: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      modelId: z.string(),
      instructions: z.string().nullable(),
      tools: z.array(z.string()),
      settings: settingsOut,
    }),
  ),
});

/** `GET /v1/models`: every model an agent may name, with its prices in USD. */
export const modelListOut = z.object({
  models: z.array(
    z.object({
      id: z.string(),
      provider: z.string(),
      pricing: z.object({ inputPerMTokUsd: z.number(), outputPerMTokUsd: z.number(), perRunUsd: z.number() }),
    }),
  ),
});

/** `GET /v1/tools`: every tool an agent may list, with the JSON Schema of its arguments. */
export const toolListOut = z.object({
  tools: z.array(
    z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) }),
  ),
});
