import { ExtractError } from './extractError';

/**
 * Parses CSV text per RFC 4180: comma-separated cells, double-quoted cells may hold commas, line breaks
 * and doubled quotes; CRLF or LF ends a record; blank lines are skipped. Kept in this one function so a
 * maintained parser can replace it without touching its callers.
 * @throws {ExtractError} for a quoted cell that never closes, or text after a closing quote
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
    quoted = false;
  };
  const endRow = () => {
    endCell();
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' && cell === '' && !quoted) {
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) throw new ExtractError(`The CSV has a quoted cell that never closes (record ${rows.length + 1})`);
        cell += text.slice(from, q);
        if (text[q + 1] !== '"') {
          i = q + 1;
          break;
        }
        cell += '"';
        from = q + 2;
      }
      quoted = true;
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new ExtractError(`The CSV has text after a closing quote (record ${rows.length + 1})`);
      }
      continue;
    }
    if (c === ',') endCell();
    else if (c === '\n' || c === '\r') {
      endRow();
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else cell += c;
    i++;
  }
  if (cell !== '' || quoted || row.length > 0) endRow();
  return rows;
}
