import type { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey, setApiKeySpendCap } from '../../domain/identity/apiKeys';
import type { ApiKeyCache } from '../../domain/identity/apiKeyCache';
import { pageQuery } from '../../domain/shared/pagination';
import { createApiKeyBody, apiKeyListOut, apiKeyOut, createdApiKeyOut, spendCapBody } from '../schemas/apiKeys';
import { idParams } from '../schemas/common';
import { auditContext } from '../auditContext';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;

/** API keys (docs/api/identity.md): create (plaintext once), list, set a spend cap, revoke. Scope `keys:manage`. */
export function apiKeyRoutes(deps: { apiKeys: ApiKeyCache }): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createApiKeyBody>>({
      method: 'POST',
      path: '/v1/api-keys',
      summary: 'Create an API key; the plaintext is returned only here',
      tag: 'api-keys',
      access: { auth: 'any', scope: 'keys:manage' },
      body: createApiKeyBody,
      responses: { 201: { description: 'Created', schema: createdApiKeyOut } },
      // A repeat cannot show the plaintext again (it is never kept): 409 naming the key instead.
      idempotency: 'secret',
      async handler(ctx, { body }) {
        ctx.body = await createApiKey(ctx.state.em, ctx.state.identity!, body, auditContext(ctx));
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/api-keys',
      summary: 'List active API keys (never their plaintext)',
      tag: 'api-keys',
      access: { auth: 'any', scope: 'keys:manage' },
      query: pageQuery,
      responses: { 200: { description: 'Keys, newest first', schema: apiKeyListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listApiKeys(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<z.infer<typeof spendCapBody>, undefined, IdParams>({
      method: 'PUT',
      path: '/v1/api-keys/:id/spend-cap',
      summary: "Set or clear a key's monthly spend cap",
      tag: 'api-keys',
      access: { auth: 'any', scope: 'keys:manage' },
      params: idParams,
      body: spendCapBody,
      responses: { 200: { description: 'The key as listed', schema: apiKeyOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await setApiKeySpendCap(
          ctx.state.em,
          ctx.state.identity!,
          params.id,
          body.monthlySpendCapUsd,
          auditContext(ctx),
        );
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/api-keys/:id',
      summary: 'Revoke a key; it stops working at once',
      tag: 'api-keys',
      access: { auth: 'any', scope: 'keys:manage' },
      params: idParams,
      responses: { 204: { description: 'Revoked' } },
      async handler(ctx, { params }) {
        await revokeApiKey(ctx.state.em, ctx.state.identity!, params.id, auditContext(ctx));
        // at once here; the other replicas drop it when PostgreSQL's notice reaches them
        deps.apiKeys.forgetKey(params.id);
        ctx.status = 204;
      },
    }),
  ];
}
