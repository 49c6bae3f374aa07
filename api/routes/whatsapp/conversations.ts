import type { z } from 'zod';
import { getWhatsAppConversation, listWhatsAppConversations } from '../../../domain/whatsapp/conversations';
import { redeliverReply } from '../../../domain/whatsapp/redeliver';
import type { ReplyDeps } from '../../../domain/whatsapp/replies';
import { idParams } from '../../schemas/common';
import {
  conversationDetailOut,
  conversationListOut,
  conversationQuery,
  redeliverOut,
  redeliverParams,
} from '../../schemas/whatsapp';
import { defineRoute, type RouteDef } from '../route';

/** WhatsApp conversations: the engine's conversations of the workspace's accounts (docs/api/whatsapp.md). */
export function whatsappConversationRoutes(deps: ReplyDeps): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof conversationQuery>>({
      method: 'GET',
      path: '/v1/whatsapp/conversations',
      summary: 'List WhatsApp conversations, newest first, optionally of one account',
      tag: 'whatsapp',
      access: { auth: 'any', scope: 'whatsapp:read' },
      query: conversationQuery,
      responses: { 200: { description: 'Conversations', schema: conversationListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listWhatsAppConversations(ctx.state.em, ctx.state.identity!.workspaceId, query);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof idParams>>({
      method: 'GET',
      path: '/v1/whatsapp/conversations/:id',
      summary: 'Get a WhatsApp conversation with its messages',
      tag: 'whatsapp',
      access: { auth: 'any', scope: 'whatsapp:read' },
      params: idParams,
      responses: { 200: { description: 'The conversation and its messages', schema: conversationDetailOut } },
      async handler(ctx, { params }) {
        ctx.body = await getWhatsAppConversation(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof redeliverParams>>({
      method: 'POST',
      path: '/v1/whatsapp/conversations/:id/messages/:messageId/redeliver',
      summary: 'Send a failed reply again (one attempt now; the answer says how it went)',
      tag: 'whatsapp',
      access: { auth: 'any', scope: 'whatsapp:manage' },
      params: redeliverParams,
      responses: {
        202: { description: 'Attempted: `sent`, or `failed` again with the reason', schema: redeliverOut },
        404: { description: '`not_found`: no such conversation, or no reply of it with this id' },
        409: { description: '`conflict`: the reply has not failed (`details.status`)' },
      },
      async handler(ctx, { params }) {
        const workspaceId = ctx.state.identity!.workspaceId;
        ctx.body = await redeliverReply(ctx.state.em, deps, workspaceId, params.id, params.messageId);
        ctx.status = 202;
      },
    }),
  ];
}
