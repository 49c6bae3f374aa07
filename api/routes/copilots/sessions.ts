import { z } from 'zod';
import type { Scope } from '../../../domain/identity/scopes';
import { pageQuery } from '../../../domain/shared/pagination';
import { getCopilotSession, listCopilotSessions, type CopilotSubject } from '../../../domain/copilots/sessions';
import { idParams } from '../../schemas/common';
import { copilotSessionListOut, copilotSessionOut } from '../../schemas/copilots';
import { defineRoute, type RouteDef } from '../route';

const sessionParams = idParams.extend({ sessionId: z.uuid() });

/** Where each copilot's sessions are read, and with which scope (docs/api/copilots.md#sessions). */
const COPILOTS: Array<{ subject: CopilotSubject; base: string; scope: Scope; tag: string; of: string }> = [
  { subject: 'agent', base: '/v1/agents/:id/copilot/sessions', scope: 'agents:read', tag: 'copilots', of: 'agent' },
  {
    subject: 'data_source',
    base: '/v1/data-sources/:id/copilot/sessions',
    scope: 'data_sources:read',
    tag: 'copilots',
    of: 'data source',
  },
];

/** The copilots' histories, readable like tutor sessions: a list without messages, one with them. */
export function copilotSessionRoutes(): RouteDef[] {
  return COPILOTS.flatMap(({ subject, base, scope, tag, of }) => [
    defineRoute<undefined, z.infer<typeof pageQuery>, z.infer<typeof idParams>>({
      method: 'GET',
      path: base,
      summary: `The copilot sessions about an ${of}, newest first`,
      tag,
      access: { auth: 'any', scope },
      params: idParams,
      query: pageQuery,
      responses: { 200: { description: 'Sessions', schema: copilotSessionListOut } },
      async handler(ctx, { params, query }) {
        const workspaceId = ctx.state.identity!.workspaceId;
        ctx.body = await listCopilotSessions(ctx.state.em, workspaceId, subject, params.id, query);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof sessionParams>>({
      method: 'GET',
      path: `${base}/:sessionId`,
      summary: `One copilot session about an ${of}, with its messages`,
      tag,
      access: { auth: 'any', scope },
      params: sessionParams,
      responses: { 200: { description: 'The session', schema: copilotSessionOut } },
      async handler(ctx, { params }) {
        const workspaceId = ctx.state.identity!.workspaceId;
        ctx.body = await getCopilotSession(ctx.state.em, workspaceId, subject, params.id, params.sessionId);
      },
    }),
  ]);
}
