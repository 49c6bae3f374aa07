import { z } from 'zod';

/** A message of a conversation as the API shows it (docs/api/conversations.md). */
export const conversationMessageOut = z.object({
  seq: z.number().int(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  runId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

/** The fields every conversation view shares. */
export const conversationBase = {
  id: z.uuid(),
  agentId: z.uuid(),
  status: z.enum(['active', 'ended']),
  endedReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
};
