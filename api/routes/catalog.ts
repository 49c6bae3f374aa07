import { listModels, listPresets, listTools } from '../../domain/catalog/catalog';
import type { ModelRegistry } from '../../domain/models/registry';
import type { ToolRegistry } from '../../domain/tools/registry';
import { modelListOut, presetListOut, toolListOut } from '../schemas/catalog';
import { defineRoute, type RouteDef } from './route';

/** The built-in catalogues of presets, models and tools (docs/api/agents.md), scope `agents:read`. */
export function catalogRoutes(deps: { models: ModelRegistry; tools: ToolRegistry }): RouteDef[] {
  const access = { auth: 'any', scope: 'agents:read' } as const;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/presets',
      summary: 'Built-in agent presets',
      tag: 'catalog',
      access,
      responses: { 200: { description: 'Presets', schema: presetListOut } },
      async handler(ctx) {
        ctx.body = listPresets();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/models',
      summary: 'Available models and their prices',
      tag: 'catalog',
      access,
      responses: { 200: { description: 'Models', schema: modelListOut } },
      async handler(ctx) {
        ctx.body = listModels(deps.models);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/tools',
      summary: 'Tools an agent can use',
      tag: 'catalog',
      access,
      responses: { 200: { description: 'Tools', schema: toolListOut } },
      async handler(ctx) {
        ctx.body = listTools(deps.tools);
      },
    }),
  ];
}
