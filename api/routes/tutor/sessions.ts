import type { z } from 'zod';
import type { ConversationDeps } from '../../../domain/conversations';
import { pageQuery } from '../../../domain/shared/pagination';
import { endSession, getSession, listSessions, sendMessage, startSession } from '../../../domain/tutor/sessions';
import { idParams } from '../../schemas/common';
import { sessionListOut, sessionMessageBody, sessionOut, sessionReplyOut, startSessionBody } from '../../schemas/tutor';
import { defineRoute, type RouteDef } from '../route';

type IdParams = z.infer<typeof idParams>;
type Page = z.infer<typeof pageQuery>;

/** Tutor sessions (docs/api/tutor.md): conversations of the `tutor` channel, the reply in the response. */
export function tutorRoutes(deps: Omit<ConversationDeps, 'em'>): RouteDef[] {
  const write = { auth: 'any', scope: 'runs:write' } as const;
  const read = { auth: 'any', scope: 'agents:read' } as const;
  return [
    defineRoute<z.infer<typeof startSessionBody>>({
      method: 'POST',
      path: '/v1/tutor/sessions',
      summary: 'Start a tutor session with an agent on a topic',
      tag: 'tutor',
      access: write,
      body: startSessionBody,
      responses: { 201: { description: 'Started', schema: sessionOut } },
      async handler(ctx, { body }) {
        ctx.body = await startSession({ ...deps, em: ctx.state.em }, ctx.state.identity!, body);
        ctx.status = 201;
      },
    }),
    defineRoute<z.infer<typeof sessionMessageBody>, undefined, IdParams>({
      method: 'POST',
      path: '/v1/tutor/sessions/:id/messages',
      summary: "Send a message and get the tutor's reply (Idempotency-Key: the message's id)",
      tag: 'tutor',
      access: write,
      params: idParams,
      body: sessionMessageBody,
      // The key is the message's id, kept with the message (domain/conversations/turns.ts).
      idempotency: 'own',
      responses: {
        200: { description: 'The reply', schema: sessionReplyOut },
        402: { description: '`billing.insufficient_credits` or `billing.spend_cap_exceeded`' },
        409: { description: '`conflict`: the session has ended' },
        503: { description: '`unavailable`: no reply in time; retry with the same Idempotency-Key' },
      },
      async handler(ctx, { params, body }) {
        const key = ctx.get('Idempotency-Key') || null;
        ctx.body = await sendMessage({ ...deps, em: ctx.state.em }, ctx.state.identity!, params.id, body.text, key);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'POST',
      path: '/v1/tutor/sessions/:id/end',
      summary: 'End a tutor session',
      tag: 'tutor',
      access: write,
      params: idParams,
      responses: { 200: { description: 'The ended session', schema: sessionOut } },
      async handler(ctx, { params }) {
        ctx.body = await endSession({ ...deps, em: ctx.state.em }, ctx.state.identity!, params.id);
      },
    }),
    defineRoute<undefined, Page>({
      method: 'GET',
      path: '/v1/tutor/sessions',
      summary: 'List tutor sessions, newest first',
      tag: 'tutor',
      access: read,
      query: pageQuery,
      responses: { 200: { description: 'Sessions', schema: sessionListOut } },
      async handler(ctx, { query }) {
        ctx.body = await listSessions(ctx.state.em, ctx.state.identity!, query);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/tutor/sessions/:id',
      summary: 'Get a tutor session with its messages',
      tag: 'tutor',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The session', schema: sessionOut } },
      async handler(ctx, { params }) {
        ctx.body = await getSession(ctx.state.em, ctx.state.identity!, params.id);
      },
    }),
  ];
}
