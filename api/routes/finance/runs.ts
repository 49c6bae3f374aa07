import type { z } from 'zod';
import { startReconciliation, startReport } from '../../../domain/finance/runs';
import type { ModelRegistry } from '../../../domain/models/registry';
import type { ToolRegistry } from '../../../domain/tools/registry';
import type { Config } from '../../../platform/config';
import type { Temporal } from '../../../platform/temporal';
import { reconciliationBody, reportBody } from '../../schemas/finance';
import { runOut } from '../../schemas/runs';
import { defineRoute, type RouteDef } from '../route';

const charged = {
  402: { description: '`billing.insufficient_credits` or `billing.spend_cap_exceeded`, as for any run' },
};

/** Finance runs: reconciliation and reports, runs of the workspace's finance agent (docs/api/finance.md). */
export function financeRunRoutes(deps: {
  config: Config;
  temporal: Temporal;
  models: ModelRegistry;
  tools: ToolRegistry;
}): RouteDef[] {
  return [
    defineRoute<z.infer<typeof reconciliationBody>>({
      method: 'POST',
      path: '/v1/finance/reconciliations',
      summary: 'Start a reconciliation run: matches are proposed, then applied once approved at the run gate',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:write' },
      body: reconciliationBody,
      responses: { 201: { description: 'The run, queued', schema: runOut }, ...charged },
      async handler(ctx, { body }) {
        ctx.body = await startReconciliation(deps, ctx.state.em, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<z.infer<typeof reportBody>>({
      method: 'POST',
      path: '/v1/finance/reports',
      summary: 'Start a report run (monthly or cash flow); its output is the report, with a file in the library',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:write' },
      body: reportBody,
      responses: { 201: { description: 'The run, queued', schema: runOut }, ...charged },
      async handler(ctx, { body }) {
        ctx.body = await startReport(deps, ctx.state.em, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
  ];
}
