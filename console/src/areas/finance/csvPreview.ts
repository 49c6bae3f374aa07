/**
 * The first rows of a bank CSV, read in the browser so the import wizard can offer the header's columns
 * and show what they hold before anything is sent. It reads the file as the service does
 * (docs/api/finance.md): the separator is the one of `,`, `;` and tab the header line uses most, quoted
 * fields may hold separators, doubled quotes and line breaks, a UTF-8 BOM is ignored. Only a preview: the
 * service's own reading, line by line, is what the import reports.
 */
export interface CsvPreview {
  separator: ',' | ';' | '\t';
  header: string[];
  rows: string[][];
}

const SEPARATORS = [',', ';', '\t'] as const;

function headerSeparator(text: string): CsvPreview['separator'] {
  const end = text.indexOf('\n');
  const line = end === -1 ? text : text.slice(0, end);
  let best: CsvPreview['separator'] = ',';
  let bestCount = -1;
  for (const sep of SEPARATORS) {
    const count = line.split(sep).length - 1;
    if (count > bestCount) {
      best = sep;
      bestCount = count;
    }
  }
  return best;
}

/** The header and up to `maxRows` data rows of `text` (blank lines skipped). */
export function previewCsv(text: string, maxRows = 5): CsvPreview {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const separator = headerSeparator(body);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    if (record.length > 1 || record[0] !== '') records.push(record);
    record = [];
    field = '';
  };
  while (i < body.length && records.length < maxRows + 1) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === separator) {
      record.push(field);
      field = '';
    } else if (c === '\n') endRecord();
    else if (c !== '\r') field += c;
    i += 1;
  }
  if (i >= body.length && (field !== '' || record.length > 0)) endRecord();
  const [header = [], ...rows] = records;
  return { separator, header: header.map((h) => h.trim()), rows: rows.slice(0, maxRows) };
}

/** The header column that most likely holds `what` (by its name), or ''. */
export function guessColumn(header: string[], names: string[]): string {
  const lower = header.map((h) => h.toLowerCase());
  for (const name of names) {
    const i = lower.findIndex((h) => h === name || h.includes(name));
    if (i !== -1) return header[i];
  }
  return '';
}
