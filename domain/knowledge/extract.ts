import { extname } from 'node:path';
import type { KnowledgeFormat } from '../../db/entities/KnowledgeDocument';
import { htmlToText } from './html';
import { parseCsv } from './csv';
import { ExtractError } from './extractError';

export { ExtractError };

const BY_MIME: Record<string, KnowledgeFormat> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/json': 'json',
  'text/json': 'json',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
};

const BY_EXTENSION: Record<string, KnowledgeFormat> = {
  '.txt': 'text',
  '.text': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.csv': 'csv',
  '.json': 'json',
  '.html': 'html',
  '.htm': 'html',
};

/**
 * The format of a library file, from its media type, else (for a generic type such as
 * `application/octet-stream`) from its file name's extension; `undefined` when it is none of the five.
 */
export function fileFormat(mime: string, filename: string): KnowledgeFormat | undefined {
  const type = mime.split(';')[0].trim().toLowerCase();
  return (
    BY_MIME[type] ??
    (type.startsWith('text/') || type === 'application/octet-stream' || type === ''
      ? BY_EXTENSION[extname(filename).toLowerCase()]
      : undefined)
  );
}

function jsonToText(value: unknown, path: string, out: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => jsonToText(v, path ? `${path}.${i}` : String(i), out));
  } else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) jsonToText(v, path ? `${path}.${k}` : k, out);
  } else {
    out.push(path ? `${path}: ${String(value)}` : String(value));
  }
}

/**
 * The searchable text of a file's bytes: UTF-8 text and Markdown as they are; CSV as one line per
 * record with its cells separated by ` | `; JSON as one `path: value` line per scalar; HTML as its
 * visible text. NUL characters (which PostgreSQL text cannot hold) are dropped.
 * @throws {ExtractError} when the bytes are not UTF-8, or not valid JSON / CSV for those formats
 */
export function extractText(bytes: Buffer, format: KnowledgeFormat): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ExtractError('The file is not UTF-8 text');
  }
  text = text.replace(/\u0000/g, '');
  switch (format) {
    case 'text':
    case 'markdown':
      return text;
    case 'csv':
      return parseCsv(text)
        .map((row) => row.join(' | '))
        .join('\n');
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new ExtractError('The file is not valid JSON');
      }
      const out: string[] = [];
      jsonToText(value, '', out);
      return out.join('\n');
    }
    case 'html':
      return htmlToText(text);
  }
}
