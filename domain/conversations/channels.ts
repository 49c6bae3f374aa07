import type { Channel } from '../../db/entities/Conversation';

export type { Channel };

/** What an adapter gets to send one reply. */
export interface ReplyContext {
  workspaceId: string;
  conversationId: string;
  channelRef: string | null;
  replySeq: number;
  text: string;
}

/**
 * The outbound side of an asynchronous channel (docs/api/conversations.md#channels). Synchronous
 * channels (phone callbacks, tutor, copilots) answer in the response and need none.
 */
export interface ChannelAdapter {
  channel: Channel;
  /**
   * Sends one reply; throws to be retried (the activity has retries); must be idempotent on
   * (conversationId, replySeq) where the provider allows it. Answers `failed` for a reply the channel
   * recorded as not sendable (it stays undelivered; the channel can redeliver it).
   */
  sendReply(ctx: ReplyContext): Promise<'sent' | 'failed'>;
}
