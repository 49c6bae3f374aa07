import type { z } from 'zod';
import {
  createKnowledge,
  deleteKnowledge,
  getKnowledge,
  listKnowledge,
  updateKnowledge,
} from '../../../domain/knowledge/documents';
import type { Config } from '../../../platform/config';
import type { Storage } from '../../../platform/storage/storage';
import { idParams } from '../../schemas/common';
import {
  createKnowledgeBody,
  knowledgeListOut,
  knowledgeListQuery,
  knowledgeOut,
  updateKnowledgeBody,
} from '../../schemas/knowledge';
import { defineRoute, type RouteDef } from '../route';

type In<T extends z.ZodType> = z.infer<T>;
type IdParams = In<typeof idParams>;
const read = { auth: 'any', scope: 'agents:read' } as const;
const write = { auth: 'any', scope: 'agents:write' } as const;

/** Knowledge documents: create from text or a library file, read, change, delete, list (docs/api/knowledge.md). */
export function knowledgeDocumentRoutes(deps: { config: Config; storage: Storage }): RouteDef[] {
  const limits = { maxChars: deps.config.maxKnowledgeChars };
  return [
    defineRoute<In<typeof createKnowledgeBody>>({
      method: 'POST',
      path: '/v1/knowledge',
      summary: 'Create a knowledge document from text or from a library file (text, markdown, csv, json, html)',
      tag: 'knowledge',
      access: write,
      body: createKnowledgeBody,
      responses: { 201: { description: 'Created', schema: knowledgeOut } },
      async handler(ctx, { body }) {
        const workspaceId = ctx.state.identity!.workspaceId;
        ctx.body = await createKnowledge(ctx.state.em, deps.storage, workspaceId, body, limits);
        ctx.status = 201;
      },
    }),
    defineRoute<undefined, In<typeof knowledgeListQuery>>({
      method: 'GET',
      path: '/v1/knowledge',
      summary: 'List knowledge documents, newest first; optionally of a project or linked to an agent',
      tag: 'knowledge',
      access: read,
      query: knowledgeListQuery,
      responses: { 200: { description: 'Documents (without their text)', schema: knowledgeListOut } },
      async handler(ctx, { query }) {
        const { items, nextCursor } = await listKnowledge(ctx.state.em, ctx.state.identity!.workspaceId, query);
        ctx.body = { knowledge: items, nextCursor };
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'GET',
      path: '/v1/knowledge/:id',
      summary: 'Read one knowledge document with its text',
      tag: 'knowledge',
      access: read,
      params: idParams,
      responses: { 200: { description: 'The document', schema: knowledgeOut } },
      async handler(ctx, { params }) {
        ctx.body = await getKnowledge(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
      },
    }),
    defineRoute<In<typeof updateKnowledgeBody>, undefined, IdParams>({
      method: 'PATCH',
      path: '/v1/knowledge/:id',
      summary: 'Change the title, text, linked agents or project of a knowledge document',
      tag: 'knowledge',
      access: write,
      params: idParams,
      body: updateKnowledgeBody,
      responses: { 200: { description: 'The document', schema: knowledgeOut } },
      async handler(ctx, { params, body }) {
        const workspaceId = ctx.state.identity!.workspaceId;
        ctx.body = await updateKnowledge(ctx.state.em, workspaceId, params.id, body, limits);
      },
    }),
    defineRoute<undefined, undefined, IdParams>({
      method: 'DELETE',
      path: '/v1/knowledge/:id',
      summary: 'Delete a knowledge document',
      tag: 'knowledge',
      access: write,
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      async handler(ctx, { params }) {
        await deleteKnowledge(ctx.state.em, ctx.state.identity!.workspaceId, params.id);
        ctx.status = 204;
      },
    }),
  ];
}
