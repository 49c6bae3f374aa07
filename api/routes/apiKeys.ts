import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { spentThisMonthMicros } from '../../domain/billing/spend';
import { ApiKey } from '../../db/entities/ApiKey';
import { Workspace } from '../../db/entities/Workspace';
import { newApiKeyPlaintext, sha256Hex } from '../../domain/identity/secrets';
import type { Identity } from '../context';
import { errors } from '../../domain/errors';
import { microsToUsd, usdToMicros } from '../../domain/billing/money';
import { findPage, pageQuery } from '../../domain/pagination';
import { createApiKeyBody, apiKeyListOut, apiKeyOut, createdApiKeyOut, spendCapBody } from '../schemas/apiKeys';
import { idParams } from '../schemas/common';
import { defineRoute, type RouteDef } from './route';

type IdParams = z.infer<typeof idParams>;

function serialize(key: ApiKey, spentMicros: number): z.infer<typeof apiKeyOut> {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes as z.infer<typeof apiKeyOut>['scopes'],
    prefix: key.prefix,
    monthlySpendCapUsd: key.monthlySpendCapMicros === null ? null : microsToUsd(key.monthlySpendCapMicros),
    spentThisMonthUsd: microsToUsd(spentMicros),
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

async function findActiveKey(em: EntityManager, identity: Identity, id: string): Promise<ApiKey> {
  // Another workspace's key is "not found", never "forbidden" (CONTRACT §1).
  const key = await em.findOne(ApiKey, { id, workspace: identity.workspaceId, revokedAt: null });
  if (!key) throw errors.notFound('API key');
  return key;
}

/** spec §4.1, CONTRACT §3: create (plaintext once), list, set a spend cap, revoke. Scope `keys:manage`. */
export function apiKeyRoutes(): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createApiKeyBody>>({
      method: 'POST',
      path: '/v1/api-keys',
      summary: 'Create an API key; the plaintext is returned only here',
      tag: 'api-keys',
      access: { auth: 'any', scope: 'keys:manage' },
      body: createApiKeyBody,
      responses: { 201: { description: 'Created', schema: createdApiKeyOut } },
      async handler(ctx, { body }) {
        const identity = ctx.state.identity!;
        if (identity.actor === 'api_key') {
          const missing = body.scopes.filter((s) => !identity.scopes.includes(s));
          if (missing.length)
            throw errors.forbidden(`A key cannot grant scopes it does not hold: ${missing.join(', ')}`);
        }
        const em = ctx.state.em;
        const plaintext = newApiKeyPlaintext();
        const workspace = em.getReference(Workspace, identity.workspaceId);
        const key = new ApiKey(workspace, body.name, body.scopes, sha256Hex(plaintext), plaintext.slice(0, 12));
        key.monthlySpendCapMicros = body.monthlySpendCapUsd == null ? null : usdToMicros(body.monthlySpendCapUsd);
        await em.persist(key).flush();
        const { spentThisMonthUsd: _s, lastUsedAt: _l, ...rest } = serialize(key, 0);
        ctx.status = 201;
        ctx.body = { ...rest, key: plaintext };
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
        const em = ctx.state.em;
        const { items, nextCursor } = await findPage(
          em,
          ApiKey,
          { workspace: ctx.state.identity!.workspaceId, revokedAt: null },
          query,
        );
        const spent = await spentThisMonthMicros(
          em,
          items.map((k) => k.id),
        );
        ctx.body = { apiKeys: items.map((k) => serialize(k, spent.get(k.id) ?? 0)), nextCursor };
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
        const em = ctx.state.em;
        const key = await findActiveKey(em, ctx.state.identity!, params.id);
        key.monthlySpendCapMicros = body.monthlySpendCapUsd === null ? null : usdToMicros(body.monthlySpendCapUsd);
        await em.flush();
        const spent = await spentThisMonthMicros(em, [key.id]);
        ctx.body = serialize(key, spent.get(key.id) ?? 0);
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
        const em = ctx.state.em;
        const key = await findActiveKey(em, ctx.state.identity!, params.id);
        key.revokedAt = new Date();
        await em.flush();
        ctx.status = 204;
      },
    }),
  ];
}
