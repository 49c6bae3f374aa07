/** Shapes of knowledge documents and of search (the service's docs/api/knowledge.md and docs/api/search.md). */

/** The formats a document's text may come from. */
export type KnowledgeFormat = 'text' | 'markdown' | 'csv' | 'json' | 'html';

/** Where a document's text came from. */
export interface KnowledgeSource {
  type: 'text' | 'file';
  /** The library file it was extracted from; `null` for text. */
  fileId: string | null;
  format: KnowledgeFormat;
}

/** A knowledge document; `text` is present only when one document is read ({@link Knowledge.get}). */
export interface KnowledgeDocument {
  id: string;
  title: string;
  source: KnowledgeSource;
  /** Characters of text. */
  chars: number;
  agentIds: string[];
  projectId: string | null;
  createdAt: string;
  updatedAt: string;
  text?: string;
}

/** `client.knowledge.create`: exactly one of `text` and `fileId`. */
export type KnowledgeCreateParams = {
  title: string;
  agentIds?: string[];
  projectId?: string | null;
} & ({ text: string; fileId?: never } | { fileId: string; text?: never });

/** `client.knowledge.update`: at least one field. */
export interface KnowledgeUpdateParams {
  title?: string;
  text?: string;
  agentIds?: string[];
  projectId?: string | null;
}

/** One knowledge search result; `snippet` marks matches with `<mark>`…`</mark>` (the rest is not HTML-escaped). */
export interface KnowledgeSearchResult {
  documentId: string;
  title: string;
  snippet: string;
  score: number;
}

/** What workspace search covers. */
export type SearchType = 'runs' | 'agents' | 'files' | 'knowledge' | 'flows';

/** One workspace search result. */
export interface SearchResult {
  type: SearchType;
  id: string;
  title: string;
  snippet: string;
}
