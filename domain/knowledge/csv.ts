import { CsvError, parse } from 'csv-parse/sync';
import { ExtractError } from './extractError';

/**
 * Parses CSV text per RFC 4180 with csv-parse: comma-separated cells, double-quoted cells may hold
 * commas, line breaks and doubled quotes; CRLF or LF ends a record; blank lines are skipped; records
 * may differ in length.
 * @throws {ExtractError} for a quoted cell that never closes, text after a closing quote, or any other
 * malformed input, naming the line
 */
export function parseCsv(text: string): string[][] {
  try {
    return parse(text, {
      // records may end in CRLF or LF within one file
      record_delimiter: ['\r\n', '\n'],
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
    }) as string[][];
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const at = (err as CsvError & { lines?: number }).lines;
    const where = at ? ` (line ${at})` : '';
    if (err.code === 'CSV_QUOTE_NOT_CLOSED')
      throw new ExtractError(`The CSV has a quoted cell that never closes${where}`);
    if (err.code === 'CSV_INVALID_CLOSING_QUOTE')
      throw new ExtractError(`The CSV has text after a closing quote${where}`);
    throw new ExtractError(`The CSV is malformed${where}: ${err.message}`);
  }
}
