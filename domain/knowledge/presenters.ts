import type { KnowledgeDocument, KnowledgeFormat } from '../../db/entities/KnowledgeDocument';

/** Where a document's text came from: given as text, or extracted from a library file of `format`. */
export interface KnowledgeSourceView {
  type: 'text' | 'file';
  /** The library file it was extracted from (it may have been deleted since); `null` for text. */
  fileId: string | null;
  format: KnowledgeFormat;
}

/** The knowledge document object (docs/api/knowledge.md); `text` only when one document is read. */
export interface KnowledgeView {
  id: string;
  title: string;
  source: KnowledgeSourceView;
  chars: number;
  agentIds: string[];
  projectId: string | null;
  createdAt: string;
  updatedAt: string;
  text?: string;
}

export function serializeKnowledge(doc: KnowledgeDocument, withText = false): KnowledgeView {
  return {
    id: doc.id,
    title: doc.title,
    source: { type: doc.sourceType, fileId: doc.sourceFileId, format: doc.sourceFormat },
    chars: doc.chars,
    agentIds: doc.agentIds,
    projectId: doc.projectId,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
    ...(withText ? { text: doc.text } : {}),
  };
}
