/**
 * What a call needs of the conversation engine (docs/api/conversations.md): one conversation per call,
 * a synchronous turn per transcribed utterance (idempotent on its message id), and its end on hang-up.
 */
export interface CallEngine {
  open(req: {
    workspaceId: string;
    agentId: string;
    callId: string;
    context: Record<string, unknown>;
  }): Promise<string>;
  turn(req: {
    workspaceId: string;
    conversationId: string;
    messageId: string;
    text: string;
  }): Promise<{ reply: string; duplicate: boolean }>;
  end(req: { workspaceId: string; conversationId: string; reason: string }): Promise<void>;
}
