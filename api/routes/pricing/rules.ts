import type { z } from 'zod';
import { pageQuery } from '../../../domain/shared/pagination';
import { createRule, deleteRule, listRules, updateRule, type PricingDeps } from '../../../domain/pricing/rules';
import { idParams } from '../../schemas/common';
import { createRuleBody, ruleListOut, ruleOut, updateRuleBody } from '../../schemas/pricing';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** The rules of a price list (docs/api/pricing.md#rules). */
export function pricingRuleRoutes(deps: PricingDeps): RouteDef[] {
  return [
    defineRoute<z.infer<typeof createRuleBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/price-lists/:id/rules',
      creates: '/v1/pricing-rules',
      summary: 'Add a pricing rule to a price list',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      body: createRuleBody,
      responses: { 201: { description: 'Created', schema: ruleOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await createRule(ctx.state.em, deps, ctx.state.identity!, params.id, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>, IdParams>({
      method: 'GET',
      path: '/v1/price-lists/:id/rules',
      summary: "List a price list's rules, newest first",
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:read' },
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Rules', schema: ruleListOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await listRules(ctx.state.em, ctx.state.identity!, params.id, query);
      },
    }),
    defineRoute<z.infer<typeof updateRuleBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/pricing-rules/:id',
      summary: 'Change a pricing rule (match replaces the whole match; null clears a price)',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      body: updateRuleBody,
      responses: { 200: { description: 'The rule', schema: ruleOut } },
      async handler(ctx, { params, body }) {
        ctx.body = await updateRule(ctx.state.em, deps, ctx.state.identity!, params.id, body);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/pricing-rules/:id',
      summary: 'Delete a pricing rule',
      tag: 'pricing',
      access: { auth: 'any', scope: 'agents:write' },
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteRule(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
