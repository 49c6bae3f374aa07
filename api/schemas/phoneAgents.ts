import { z } from 'zod';
import { PHONE_PRESETS } from '../../domain/agents/presets';
import { agentBodies, agentOut, type AgentCatalog } from './agents';

/** A phone agent (docs/api/phone.md#phone-agents): the agent object of `/v1/agents` with its numbers. */
export const phoneAgentOut = agentOut.extend({
  numbers: z.array(z.object({ id: z.uuid(), e164: z.string(), provider: z.string() }).strict()),
});

export const phoneAgentListOut = z.object({ agents: z.array(phoneAgentOut), nextCursor: z.string().nullable() });

/**
 * The bodies of `/v1/agents` for the phone presets: the same fields and checks, with `presetId` required and
 * one of the phone presets.
 */
export function phoneAgentBodies(catalog: Omit<AgentCatalog, 'presets'>) {
  const { createAgentBody, updateAgentBody } = agentBodies({ ...catalog, presets: PHONE_PRESETS });
  return {
    createPhoneAgentBody: createAgentBody.extend({
      presetId: z.enum(PHONE_PRESETS as [string, ...string[]]).describe('A phone preset'),
    }),
    updatePhoneAgentBody: updateAgentBody,
  };
}
export type PhoneAgentBodies = ReturnType<typeof phoneAgentBodies>;
