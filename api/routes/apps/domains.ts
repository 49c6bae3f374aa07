import type { z } from 'zod';
import { addDomain, removeDomain, verifyDomain } from '../../../domain/apps/domains';
import type { TxtResolver } from '../../../platform/net/dnsServers';
import { addDomainBody, domainCheckOut, domainOut, domainParams } from '../../schemas/apps';
import { idParams } from '../../schemas/common';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
type DomainParams = z.infer<typeof domainParams>;
const access = { auth: 'any', scope: 'apps:manage' } as const;
const tag = 'apps';

/** An app's custom domains (docs/api/apps.md#custom-domains). */
export function appDomainRoutes(deps: { resolveTxt: TxtResolver }): RouteDef[] {
  return [
    defineRoute<z.infer<typeof addDomainBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/apps/:id/domains',
      summary: 'Add a custom hostname to an app (pending until its TXT record is verified)',
      tag,
      access,
      params: idParams,
      body: addDomainBody,
      responses: {
        201: { description: 'Added', schema: domainOut },
        409: { description: 'The app has this hostname already, or has 10 domains' },
      },
      async handler(ctx, { params, body }) {
        ctx.body = await addDomain(ctx.state.em, ctx.state.identity!, params.id, body.hostname);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, undefined, DomainParams>({
      method: 'POST',
      path: '/v1/apps/:id/domains/:hostname/verify',
      summary: "Check the hostname's _svc-verify TXT record and verify it (moving it from any app that had it)",
      tag,
      access,
      params: domainParams,
      responses: { 200: { description: 'The domain and the outcome of the check', schema: domainCheckOut } },
      async handler(ctx, { params }) {
        ctx.body = await verifyDomain(ctx.state.em, deps.resolveTxt, ctx.state.identity!, params.id, params.hostname);
      },
    }),
    defineRoute<undefined, undefined, DomainParams>({
      method: 'DELETE',
      path: '/v1/apps/:id/domains/:hostname',
      summary: 'Remove a custom hostname from an app',
      tag,
      access,
      params: domainParams,
      responses: { 204: { description: 'Removed' } },
      async handler(ctx, { params }) {
        await removeDomain(ctx.state.em, ctx.state.identity!, params.id, params.hostname);
        ctx.status = 204;
      },
    }),
  ];
}
