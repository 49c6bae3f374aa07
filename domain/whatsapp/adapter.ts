import type { Orm } from '../../db/orm';
import type { Config } from '../../platform/config';
import { createResolver } from '../../platform/net/dnsServers';
import { createSecretBox } from '../../platform/secrets';
import type { ChannelRegistry } from '../conversations/channelRegistry';
import type { ChannelAdapter, ReplyContext } from '../conversations/channels';
import { deliverReply, type ReplyDeps } from './replies';

/** The Graph API's settings and the secrets' box, from the process's configuration. */
export function replyDeps(config: Config): ReplyDeps {
  return {
    box: createSecretBox(config.secretKeys),
    graph: {
      apiUrl: config.whatsapp.apiUrl,
      apiVersion: config.whatsapp.apiVersion,
      allowPrivate: config.allowPrivateEgress,
      resolver: createResolver(config.dnsServers),
    },
  };
}

/**
 * The WhatsApp channel's outbound side (docs/api/whatsapp.md#replies): each reply is one Graph API call with the
 * account's token, to the contact the conversation is with, recorded with its status (`whatsapp_replies`) so a
 * retry sends nothing more once it was taken. A passing failure throws, for the engine's activity to retry; a
 * reply that cannot be sent (outside the 24-hour window without a template, refused, account removed) is
 * recorded `failed` and can be redelivered.
 */
export function createWhatsAppAdapter(deps: { orm: Orm; config: Config }): ChannelAdapter {
  const reply = replyDeps(deps.config);
  return {
    channel: 'whatsapp',
    sendReply: (ctx: ReplyContext) => deliverReply(deps.orm.em.fork(), reply, ctx.conversationId, ctx.replySeq),
  };
}

/** Adds the WhatsApp channel's adapter to the conversations' channel registry (the worker does). */
export function registerWhatsApp(channels: ChannelRegistry, deps: { orm: Orm; config: Config }): void {
  channels.register('whatsapp', createWhatsAppAdapter(deps));
}
