import { Readable } from 'node:stream';
import type { z } from 'zod';
import { auditCsv } from '../../domain/audit/csv';
import { allAuditEntries, listAuditEntries, type AuditFilter } from '../../domain/audit/list';
import type { AppContext } from '../context';
import { auditExportQuery, auditListOut, auditListQuery } from '../schemas/audit';
import { defineRoute, type RouteDef } from './route';

// Owners and admins read the log in the console; a key needs `keys:manage`, the scope of the most
// sensitive writes it records (docs/api/audit.md). Members and other keys: 403.
const access = { auth: 'any', scope: 'keys:manage', sessionRoles: ['owner', 'admin'] } as const;

const csvResponse = { 200: { description: 'Every matching entry, newest first, as CSV', contentType: 'text/csv' } };

/** Streams every entry matching the filter as CSV (the query was validated before anything is sent). */
function sendCsv(ctx: AppContext, filter: AuditFilter): void {
  const { workspaceId } = ctx.state.identity!;
  ctx.type = 'text/csv; charset=utf-8';
  ctx.attachment(`audit-${workspaceId}.csv`);
  ctx.body = Readable.from(auditCsv(allAuditEntries(ctx.state.em, workspaceId, filter)));
}

/** The workspace's audit log (docs/api/audit.md): a page of entries, or all of them as CSV. */
export function auditRoutes(): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof auditListQuery>>({
      method: 'GET',
      path: '/v1/audit',
      summary: "The workspace's audit log, newest first (or, with format=csv, every matching entry as CSV)",
      tag: 'audit',
      access,
      query: auditListQuery,
      responses: {
        200: {
          description: 'Entries, newest first',
          schema: auditListOut,
          contentType: ['application/json', 'text/csv'],
        },
      },
      async handler(ctx, { query }) {
        const { limit, cursor, format, ...filter } = query;
        if (format === 'csv') return sendCsv(ctx, filter);
        ctx.body = await listAuditEntries(ctx.state.em, ctx.state.identity!.workspaceId, filter, { limit, cursor });
      },
    }),
    defineRoute<undefined, z.infer<typeof auditExportQuery>>({
      method: 'GET',
      path: '/v1/audit/export',
      summary: 'Every matching audit entry as CSV, newest first',
      tag: 'audit',
      access,
      query: auditExportQuery,
      responses: csvResponse,
      async handler(ctx, { query }) {
        sendCsv(ctx, query);
      },
    }),
  ];
}
