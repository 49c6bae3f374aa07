import type { z } from 'zod';
import { listRunArtifacts } from '../../domain/runs/artifacts';
import { runReport } from '../../domain/runs/report';
import type { Config } from '../../platform/config';
import { idParams } from '../schemas/common';
import { artifactListOut, artifactQuery, reportQuery, runReportOut } from '../schemas/runReports';
import { defineRoute, type RouteDef } from './route';
import { renderRunReport, REPORT_CSP } from './runReportHtml';

type IdParams = z.infer<typeof idParams>;

/** A run's artifacts and its report (`runs:read`, docs/api/runs.md#artifacts, docs/api/runs.md#report). */
export function runReportRoutes(deps: { config: Config }): RouteDef[] {
  return [
    defineRoute<undefined, z.infer<typeof artifactQuery>, IdParams>({
      method: 'GET',
      path: '/v1/runs/:id/artifacts',
      summary: 'The files a run produced (a report, a tool output), newest first',
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      query: artifactQuery,
      responses: { 200: { description: 'A page of artifacts', schema: artifactListOut } },
      async handler(ctx, { params, query }) {
        ctx.body = await listRunArtifacts(ctx.state.em, ctx.state.identity!.workspaceId, params.id, query);
      },
    }),
    defineRoute<undefined, z.infer<typeof reportQuery>, IdParams>({
      method: 'GET',
      path: '/v1/runs/:id/report',
      summary:
        "A run's report for a person: agent and version, timeline with who answered each gate, output, error, " +
        'usage and cost, artifacts; `?format=html` is a printable page',
      tag: 'runs',
      access: { auth: 'any', scope: 'runs:read' },
      params: idParams,
      query: reportQuery,
      responses: {
        200: {
          description: 'The report (JSON, or HTML with `format=html`)',
          schema: runReportOut,
          contentType: 'text/html',
        },
      },
      async handler(ctx, { params, query }) {
        const report = await runReport(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        if (query.format === 'json') {
          ctx.body = report;
          return;
        }
        ctx.set('Content-Security-Policy', REPORT_CSP);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = renderRunReport(report, deps.config.publicUrl);
      },
    }),
  ];
}
