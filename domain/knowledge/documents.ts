import type { EntityManager } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import { Agent } from '../../db/entities/Agent';
import { KnowledgeDocument } from '../../db/entities/KnowledgeDocument';
import type { Storage } from '../../platform/storage/storage';
import { errors } from '../errors';
import { File } from '../../db/entities/File';
import { findPage } from '../shared/pagination';
import { projectFromBody } from '../projects/find';
import { ExtractError, extractText, fileFormat } from './extract';
import { serializeKnowledge, type KnowledgeView } from './presenters';

export interface KnowledgeLimits {
  /** `SVC_MAX_KNOWLEDGE_CHARS` */
  maxChars: number;
}

export interface CreateKnowledgeInput {
  title: string;
  text?: string;
  fileId?: string;
  agentIds?: string[];
  projectId?: string | null;
}

export interface UpdateKnowledgeInput {
  title?: string;
  text?: string;
  agentIds?: string[];
  projectId?: string | null;
}

/**
 * A knowledge document of the workspace.
 * @throws `not_found`, also for another workspace's document
 */
export async function findKnowledge(
  em: EntityManager,
  workspaceId: string,
  id: string,
  withText = false,
): Promise<KnowledgeDocument> {
  const doc = await em.findOne(KnowledgeDocument, { id, workspaceId }, withText ? { populate: ['text'] } : {});
  if (!doc) throw errors.notFound('Knowledge document');
  return doc;
}

/** Every id must name a live agent of the workspace (400 naming each failing index); duplicates collapse. */
async function checkAgents(em: EntityManager, workspaceId: string, agentIds: string[]): Promise<string[]> {
  const wanted = [...new Set(agentIds)];
  if (wanted.length === 0) return [];
  const rows = await em.find(
    Agent,
    { id: { $in: wanted }, workspace: workspaceId, deletedAt: null },
    { fields: ['id'] },
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = agentIds.map((id, i) => ({ id, i })).filter(({ id }) => !found.has(id));
  if (missing.length) {
    throw errors.validation(
      missing.map(({ i }) => ({ path: `agentIds.${i}`, message: 'No such agent in this workspace' })),
    );
  }
  return wanted;
}

function tooLong(path: string, maxChars: number) {
  return errors.validation([
    { path, message: `The text is longer than ${maxChars} characters (SVC_MAX_KNOWLEDGE_CHARS)` },
  ]);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The text of a library file of the workspace, extracted per its format (400 on `fileId` when it has none). */
async function textOfFile(
  em: EntityManager,
  storage: Storage,
  workspaceId: string,
  fileId: string,
  limits: KnowledgeLimits,
): Promise<{ text: string; format: NonNullable<ReturnType<typeof fileFormat>> }> {
  const file = await em.findOne(File, { id: fileId, workspace: workspaceId });
  if (!file) throw errors.validation([{ path: 'fileId', message: 'No such file in this workspace' }]);
  const format = fileFormat(file.mime, file.filename);
  if (!format) {
    throw errors.validation([
      { path: 'fileId', message: 'The file is not text, markdown, csv, json or html (by its type or extension)' },
    ]);
  }
  let text: string;
  try {
    text = extractText(await readAll(await storage.get(file.storageKey)), format);
  } catch (err) {
    if (err instanceof ExtractError) throw errors.validation([{ path: 'fileId', message: err.message }]);
    throw err;
  }
  if (text.length > limits.maxChars) throw tooLong('fileId', limits.maxChars);
  return { text, format };
}

/**
 * Creates a document from `text` or from the library file `fileId` (docs/api/knowledge.md).
 * @throws `validation_error` for an unknown agent, project or file, a file of another format, text over the limit
 */
export async function createKnowledge(
  em: EntityManager,
  storage: Storage,
  workspaceId: string,
  input: CreateKnowledgeInput,
  limits: KnowledgeLimits,
): Promise<KnowledgeView> {
  const agentIds = await checkAgents(em, workspaceId, input.agentIds ?? []);
  const project = await projectFromBody(em, workspaceId, input.projectId);
  const source =
    input.fileId !== undefined
      ? await textOfFile(em, storage, workspaceId, input.fileId, limits)
      : { text: input.text ?? '', format: 'text' as const };
  if (source.text.length > limits.maxChars) throw tooLong('text', limits.maxChars);
  const doc = new KnowledgeDocument(
    workspaceId,
    input.title,
    source.text,
    source.text.length,
    input.fileId !== undefined ? 'file' : 'text',
    source.format,
    agentIds,
  );
  doc.sourceFileId = input.fileId ?? null;
  doc.projectId = project?.id ?? null;
  await em.persist(doc).flush();
  return serializeKnowledge(doc);
}

/** One document with its text. */
export async function getKnowledge(em: EntityManager, workspaceId: string, id: string): Promise<KnowledgeView> {
  return serializeKnowledge(await findKnowledge(em, workspaceId, id, true), true);
}

/**
 * Changes the title, the text (the document's source becomes `text`), the linked agents or the project.
 * @throws `not_found`; `validation_error` for an unknown agent or project, or text over the limit
 */
export async function updateKnowledge(
  em: EntityManager,
  workspaceId: string,
  id: string,
  patch: UpdateKnowledgeInput,
  limits: KnowledgeLimits,
): Promise<KnowledgeView> {
  const doc = await findKnowledge(em, workspaceId, id);
  if (patch.agentIds !== undefined) doc.agentIds = await checkAgents(em, workspaceId, patch.agentIds);
  if (patch.title !== undefined) doc.title = patch.title;
  if (patch.projectId !== undefined) {
    doc.projectId = (await projectFromBody(em, workspaceId, patch.projectId))?.id ?? null;
  }
  if (patch.text !== undefined) {
    if (patch.text.length > limits.maxChars) throw tooLong('text', limits.maxChars);
    doc.text = patch.text;
    doc.chars = patch.text.length;
    doc.sourceType = 'text';
    doc.sourceFormat = 'text';
    doc.sourceFileId = null;
  }
  await em.flush();
  return serializeKnowledge(doc);
}

/** Removes a document. @throws `not_found` */
export async function deleteKnowledge(em: EntityManager, workspaceId: string, id: string): Promise<void> {
  const doc = await findKnowledge(em, workspaceId, id);
  await em.remove(doc).flush();
}

/** Documents, newest first, one page; optionally only those of a project or linked to an agent. */
export async function listKnowledge(
  em: EntityManager,
  workspaceId: string,
  query: { projectId?: string; agentId?: string; limit: number; cursor?: string },
): Promise<{ items: KnowledgeView[]; nextCursor: string | null }> {
  const where: Record<string, unknown> = { workspaceId };
  if (query.projectId) where.projectId = query.projectId;
  if (query.agentId) where.agentIds = { $contains: [query.agentId] };
  const { items, nextCursor } = await findPage(em, KnowledgeDocument, where, query);
  return { items: items.map((d) => serializeKnowledge(d)), nextCursor };
}
