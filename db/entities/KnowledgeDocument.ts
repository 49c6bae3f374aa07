import { ArrayType, EntitySchema } from '@mikro-orm/core';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { Project } from './Project';
import { Workspace } from './Workspace';

/** The formats a knowledge document's text may come from (docs/api/knowledge.md). */
export const KNOWLEDGE_FORMATS = ['text', 'markdown', 'csv', 'json', 'html'] as const;
export type KnowledgeFormat = (typeof KNOWLEDGE_FORMATS)[number];

/**
 * A knowledge document (docs/api/knowledge.md): text an agent can search with `knowledge_search`.
 * The `search` tsvector column is the database's own (a trigger keeps it; Migration20261123170000): it is
 * declared so the schema diff knows it, but never loaded or written through the ORM.
 */
export class KnowledgeDocument extends BaseEntity {
  /** A project of the workspace, checked on every write; deleting the project sets it to null. */
  projectId: string | null = null;
  sourceFileId: string | null = null;
  /** Written by the database only; never set. */
  search?: unknown;

  constructor(
    public workspaceId: string,
    public title: string,
    public text: string,
    public chars: number,
    public sourceType: 'text' | 'file',
    public sourceFormat: KnowledgeFormat,
    public agentIds: string[],
  ) {
    super();
  }
}

export const KnowledgeDocumentSchema = new EntitySchema<KnowledgeDocument, BaseEntity>({
  class: KnowledgeDocument,
  extends: 'BaseEntity',
  tableName: 'knowledge_documents',
  indexes: [
    keysetIndex('knowledge_documents_workspace_id_created_at_index', 'knowledge_documents', 'workspace_id'),
    {
      name: 'knowledge_documents_search_index',
      expression:
        'create index "knowledge_documents_search_index" on "knowledge_documents" using gin ("search") with (fastupdate = off)',
    },
    {
      name: 'knowledge_documents_agent_ids_index',
      expression: 'create index "knowledge_documents_agent_ids_index" on "knowledge_documents" using gin ("agent_ids")',
    },
  ],
  properties: {
    workspaceId: {
      kind: 'm:1',
      entity: () => Workspace,
      mapToPk: true,
      fieldName: 'workspace_id',
      foreignKeyName: 'knowledge_documents_workspace_id_fkey',
      deleteRule: 'cascade',
      updateRule: 'cascade',
    },
    title: { type: 'string' },
    // Up to SVC_MAX_KNOWLEDGE_CHARS characters: loaded only when asked for (`populate: ['text']`).
    text: { type: 'text', lazy: true },
    chars: { type: 'integer' },
    sourceType: { type: 'string', length: 16 },
    sourceFileId: { type: 'uuid', nullable: true },
    sourceFormat: { type: 'string', length: 16 },
    projectId: {
      kind: 'm:1',
      entity: () => Project,
      mapToPk: true,
      fieldName: 'project_id',
      nullable: true,
      foreignKeyName: 'knowledge_documents_project_id_fkey',
      deleteRule: 'set null',
      updateRule: 'cascade',
    },
    agentIds: { type: ArrayType, columnType: 'text[]' },
    search: { type: 'unknown', columnType: 'tsvector', nullable: true, lazy: true, hidden: true },
  },
});
