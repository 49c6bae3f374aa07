import type { z } from 'zod';
import { pageQuery } from '../../../domain/shared/pagination';
import {
  createAccount,
  listAccounts,
  removeAccount,
  updateAccount,
  type WhatsAppAccountDeps,
} from '../../../domain/whatsapp/accounts';
import { endAccountConversations } from '../../../domain/whatsapp/conversations';
import type { Config } from '../../../platform/config';
import type { Temporal } from '../../../platform/temporal';
import { idParams } from '../../schemas/common';
import { accountListOut, accountOut, createAccountBody, updateAccountBody } from '../../schemas/whatsapp';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** WhatsApp accounts: Cloud API phone numbers answered by an agent (docs/api/whatsapp.md). */
export function whatsappAccountRoutes(deps: WhatsAppAccountDeps & { config: Config; temporal: Temporal }): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createAccountBody>>({
      method: 'POST',
      path: '/v1/whatsapp/accounts',
      summary: 'Connect a WhatsApp phone number to an agent; the credentials are never shown again',
      tag: 'whatsapp',
      access: { auth: 'any', scope: 'whatsapp:manage' },
      body: createAccountBody,
      responses: {
        201: { description: 'Connected', schema: accountOut },
        409: { description: '`conflict`: a live account of the workspace has this phone number id' },
      },
      async handler(ctx, { body }) {
        ctx.body = await createAccount(ctx.state.em, deps, ctx.state.identity!.workspaceId, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/whatsapp/accounts',
      summary: 'List WhatsApp accounts, newest first',
      tag: 'whatsapp',
      access: { auth: 'any', scope: 'whatsapp:read' },
      query: pageQuery,
      responses: { 200: { description: 'Accounts', schema: accountListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listAccounts(ctx.state.em, deps, ctx.state.identity!.workspaceId, query);
      },
    }),
    defineRoute<z.infer<typeof updateAccountBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/whatsapp/accounts/:id',
      summary: 'Change the agent, phone number id or credentials of a WhatsApp account',
      tag: 'whatsapp',
      access: { auth: 'any', scope: 'whatsapp:manage' },
      params: idParams,
      body: updateAccountBody,
      responses: {
        200: { description: 'The account', schema: accountOut },
        409: { description: '`conflict`: a live account of the workspace has this phone number id' },
      },
      async handler(ctx, { params, body }) {
        ctx.body = await updateAccount(ctx.state.em, deps, ctx.state.identity!.workspaceId, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/whatsapp/accounts/:id',
      summary: 'Remove a WhatsApp account; its conversations end and stay readable',
      tag: 'whatsapp',
      access: { auth: 'any', scope: 'whatsapp:manage' },
      params: idParams,
      responses: { 204: { description: 'Removed' } },
      async handler(ctx, { params }) {
        const { workspaceId } = ctx.state.identity!;
        await removeAccount(ctx.state.em, workspaceId, params.id);
        await endAccountConversations(
          { em: ctx.state.em, temporal: deps.temporal, config: deps.config },
          workspaceId,
          params.id,
        );
        ctx.status = 204;
      },
    }),
  ];
}
