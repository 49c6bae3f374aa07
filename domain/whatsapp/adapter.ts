import type { Orm } from '../../db/orm';
import { WhatsAppConversation } from '../../db/entities/WhatsAppConversation';
import { WhatsAppReply } from '../../db/entities/WhatsAppReply';
import type { Config } from '../../platform/config';
import { createResolver } from '../../platform/net/dnsServers';
import { createSecretBox } from '../../platform/secrets';
import type { ChannelRegistry } from '../conversations/channelRegistry';
import { secretSlot } from '../../db/secretColumns';
import type { ChannelAdapter, ReplyContext } from '../conversations/channels';
import { sendText, type GraphDeps } from './graph';

/**
 * The WhatsApp channel's outbound side (docs/api/whatsapp.md#replies): each reply is one Graph API call with the
 * account's token, to the contact the conversation is with. The Graph API has no idempotency key, so an accepted
 * reply is recorded (`whatsapp_replies`) and a retry of the same (conversation, reply) sends nothing more. A
 * failure throws, for the engine's activity to retry; a reply of a removed account has nowhere to go and is dropped.
 */
export function createWhatsAppAdapter(deps: { orm: Orm; config: Config }): ChannelAdapter {
  const box = createSecretBox(deps.config.secretKeys);
  const graph: GraphDeps = {
    apiUrl: deps.config.whatsapp.apiUrl,
    apiVersion: deps.config.whatsapp.apiVersion,
    allowPrivate: deps.config.allowPrivateEgress,
    resolver: createResolver(deps.config.dnsServers),
  };
  return {
    channel: 'whatsapp',
    async sendReply(ctx: ReplyContext): Promise<void> {
      const em = deps.orm.em.fork();
      if (await em.findOne(WhatsAppReply, { conversationId: ctx.conversationId, replySeq: ctx.replySeq })) return;
      const link = await em.findOne(WhatsAppConversation, { id: ctx.conversationId }, { populate: ['account'] });
      if (!link || link.account.deletedAt) return;
      const messageId = await sendText(graph, {
        phoneNumberId: link.account.phoneNumberId,
        accessToken: box.open(
          link.account.accessTokenSealed,
          secretSlot('whatsapp_accounts', link.account.id, 'access_token'),
        ),
        to: link.waId,
        text: ctx.text,
      });
      await em
        .createQueryBuilder(WhatsAppReply)
        .insert({ conversationId: ctx.conversationId, replySeq: ctx.replySeq, messageId, createdAt: new Date() })
        .onConflict(['conversation_id', 'reply_seq'])
        .ignore()
        .execute();
    },
  };
}

/** Adds the WhatsApp channel's adapter to the conversations' channel registry (the worker does). */
export function registerWhatsApp(channels: ChannelRegistry, deps: { orm: Orm; config: Config }): void {
  channels.register('whatsapp', createWhatsAppAdapter(deps));
}
