import type { z } from 'zod';
import { exportTransactions } from '../../../domain/finance/export';
import { financeSummary } from '../../../domain/finance/summary';
import { exportQuery, summaryOut, summaryQuery } from '../../schemas/finance';
import { defineRoute, type RouteDef } from '../route';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The summary and the export (docs/api/finance.md). */
export function financeReportRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof summaryQuery>>({
      method: 'GET',
      path: '/v1/finance/summary',
      summary: 'Money in, out and net per category or month (per currency), exact',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:read' },
      query: summaryQuery,
      responses: { 200: { description: 'The summary', schema: summaryOut } },
      async handler(ctx, { query }) {
        ctx.body = await financeSummary(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, z.infer<typeof exportQuery>>({
      method: 'GET',
      path: '/v1/finance/export',
      summary: 'Stream the transactions as CSV or XLSX, oldest first',
      tag: 'finance',
      access: { auth: 'any', scope: 'finance:read' },
      query: exportQuery,
      responses: { 200: { description: 'The transactions, streamed', contentType: ['text/csv', XLSX] } },
      async handler(ctx, { query }) {
        const csv = query.format === 'csv';
        ctx.type = csv ? 'text/csv; charset=utf-8' : XLSX;
        ctx.attachment(`transactions.${query.format}`);
        ctx.body = exportTransactions(ctx.state.em, ctx.state.identity!, query);
      },
    }),
  ];
}
