import { z } from 'zod';
import { conversationBase, conversationMessageOut } from './conversations';
import { readBody, readOut } from './dataSources';
import { proposalOut } from './proposals';
import { text } from './text';

/** `POST /v1/agents/{id}/copilot` (docs/api/copilots.md). */
export const agentCopilotBody = z.strictObject({
  message: text(1, 10_000),
  conversationId: z.uuid().optional().describe('Continue this copilot conversation (default: your latest active one)'),
});

/** `POST /v1/data-sources/{id}/copilot`. */
export const dataSourceCopilotBody = z.strictObject({
  question: text(1, 10_000),
  conversationId: z.uuid().optional().describe('Continue this copilot conversation (default: your latest active one)'),
});

export const agentCopilotOut = z.object({
  conversationId: z.uuid(),
  reply: z.string(),
  runId: z.uuid().nullable(),
  proposal: proposalOut.nullable(),
});

export const dataSourceCopilotOut = z.object({
  conversationId: z.uuid(),
  reply: z.string(),
  runId: z.uuid().nullable(),
  read: readBody.nullable(),
  result: readOut.nullable(),
});

/** A copilot session (docs/api/copilots.md#sessions): the conversation about one agent or data source. */
export const copilotSessionOut = z.object({
  ...conversationBase,
  subjectId: z.uuid(),
  messages: z.array(conversationMessageOut).optional(),
});

export const copilotSessionListOut = z.object({
  sessions: z.array(copilotSessionOut),
  nextCursor: z.string().nullable(),
});
