import type { z } from 'zod';
import { applyRules, createRule, deleteRule, listRules } from '../../../domain/finance/rules';
import { pageQuery } from '../../../domain/shared/pagination';
import { idParams } from '../../schemas/common';
import { applyRulesBody, applyRulesOut, createRuleBody, ruleListOut, ruleOut } from '../../schemas/finance';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;

/** Categorisation rules (docs/api/finance.md). */
export function financeRuleRoutes(): RouteDef[] {
  return [
    // before `/v1/finance/rules/:id` would matter: `apply` is not an id
    defineRoute<z.infer<typeof applyRulesBody>>({
      method: 'POST',
      path: '/v1/finance/rules/apply',
      summary: 'Apply the rules to the stored transactions (categories a person chose stay)',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:write' },
      body: applyRulesBody,
      responses: { 200: { description: 'How many were examined and changed', schema: applyRulesOut } },
      async handler(ctx, { body }) {
        ctx.body = await applyRules(ctx.state.em, ctx.state.identity!, body);
      },
    }),
    defineRoute<z.infer<typeof createRuleBody>>({
      method: 'POST',
      path: '/v1/finance/rules',
      summary: 'Add a categorisation rule',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:write' },
      body: createRuleBody,
      responses: { 201: { description: 'Created', schema: ruleOut } },
      async handler(ctx, { body }) {
        ctx.body = await createRule(ctx.state.em, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, z.infer<typeof pageQuery>>({
      method: 'GET',
      path: '/v1/finance/rules',
      summary: 'List rules, newest first',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:read' },
      query: pageQuery,
      responses: { 200: { description: 'Rules', schema: ruleListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listRules(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/finance/rules/:id',
      summary: 'Delete a rule',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:write' },
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteRule(ctx.state.em, ctx.state.identity!, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
