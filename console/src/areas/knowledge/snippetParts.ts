/** A piece of a search snippet: plain text, or a matched word. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const MARK = /(<mark>|<\/mark>)/;

/**
 * Splits a snippet whose matched words the service puts between `<mark>` and `</mark>` and whose other text
 * is the document's as is, not HTML-escaped (docs/api/knowledge.md#search): only those two tags mean
 * anything; every other character stays text.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let marked = false;
  for (const piece of snippet.split(MARK)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece) parts.push({ text: piece, marked });
  }
  return parts;
}
