import { z } from 'zod';
import { KNOWLEDGE_FORMATS } from '../../db/entities/KnowledgeDocument';
import { pageQuery } from '../../domain/shared/pagination';

// PostgreSQL text cannot hold NUL, so it is refused here rather than failing in the database.
const noNul = (s: string) => !s.includes('\u0000');
const NUL_MESSAGE = 'Must not contain NUL characters';

const title = z.string().trim().min(1).max(255).refine(noNul, NUL_MESSAGE);
/** The cap is `SVC_MAX_KNOWLEDGE_CHARS`, checked by the domain (the JSON body limit applies first). */
const text = z.string().refine(noNul, NUL_MESSAGE);
const agentIds = z.array(z.uuid()).max(100);
/** Stored as given; projects check it once they exist (docs/api/knowledge.md). */
const projectId = z.uuid().nullable();

export const createKnowledgeBody = z
  .strictObject({
    title,
    text: text.optional(),
    fileId: z.uuid().optional(),
    agentIds: agentIds.optional(),
    projectId: projectId.optional(),
  })
  .refine((b) => (b.text === undefined) !== (b.fileId === undefined), {
    message: 'Give exactly one of text and fileId',
    path: ['text'],
  })
  // the same rule, said in the OpenAPI document (a refinement has no JSON Schema of its own)
  .meta({ oneOf: [{ required: ['text'] }, { required: ['fileId'] }] });

export const updateKnowledgeBody = z
  .strictObject({
    title: title.optional(),
    text: text.optional(),
    agentIds: agentIds.optional(),
    projectId: projectId.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const knowledgeListQuery = pageQuery.extend({
  projectId: z.uuid().optional(),
  agentId: z.uuid().optional(),
});

/** A search query: 1..500 characters in web-search syntax (docs/api/knowledge.md). */
export const searchText = z.string().trim().min(1).max(500).refine(noNul, NUL_MESSAGE);

export const knowledgeSearchQuery = z.object({
  q: searchText,
  agentId: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export const knowledgeOut = z
  .object({
    id: z.uuid(),
    title: z.string(),
    source: z
      .object({
        type: z.enum(['text', 'file']),
        fileId: z.uuid().nullable(),
        format: z.enum(KNOWLEDGE_FORMATS),
      })
      .strict(),
    chars: z.number().int(),
    agentIds: z.array(z.uuid()),
    projectId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    /** Only when one document is read (`GET /v1/knowledge/{id}`). */
    text: z.string().optional(),
  })
  .strict();

export const knowledgeListOut = z.object({ knowledge: z.array(knowledgeOut), nextCursor: z.string().nullable() });

export const knowledgeSearchOut = z.object({
  results: z.array(
    z.object({ documentId: z.uuid(), title: z.string(), snippet: z.string(), score: z.number() }).strict(),
  ),
});
