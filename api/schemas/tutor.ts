import { z } from 'zod';
import { conversationBase, conversationMessageOut } from './conversations';
import { text, trimmedText } from './text';

/** `POST /v1/tutor/sessions` (docs/api/tutor.md). */
export const startSessionBody = z.strictObject({ agentId: z.uuid(), topic: trimmedText(500) });

/** `POST /v1/tutor/sessions/{id}/messages`. */
export const sessionMessageBody = z.strictObject({ text: text(1, 10_000) });

export const sessionOut = z.object({
  ...conversationBase,
  topic: z.string(),
  messages: z.array(conversationMessageOut).optional(),
});

export const sessionListOut = z.object({ sessions: z.array(sessionOut), nextCursor: z.string().nullable() });

export const sessionReplyOut = z.object({
  reply: z.string(),
  runId: z.uuid().nullable(),
  duplicate: z.boolean(),
});
