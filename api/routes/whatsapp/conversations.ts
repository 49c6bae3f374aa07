import type { z } from 'zod';
import { getWhatsAppConversation, listWhatsAppConversations } from '../../../domain/whatsapp/conversations';
import { idParams } from '../../schemas/common';
import { conversationDetailOut, conversationListOut, conversationQuery } from '../../schemas/whatsapp';
import { defineRoute, type RouteDef } from '../route';

/** WhatsApp conversations: the engine's conversations of the workspace's accounts (docs/api/whatsapp.md). */
export function whatsappConversationRoutes(): RouteDef[] {
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
  ];
}
