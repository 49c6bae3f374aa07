import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type ExcelJS from 'exceljs';
import type { SheetColumn } from '../../db/entities/DataSourceSheet';
import { streamWorkbook } from '../../platform/xlsxReader';
import type { GuardedZip } from '../../platform/zipGuard';
import { errors } from '../errors';

/** A parsed sheet: its typed columns and rows (arrays in column order). */
export interface ParsedSheet {
  name: string;
  columns: SheetColumn[];
  rows: unknown[][];
}

/** Rows one upload may hold in all, and columns per sheet: the sheets live in PostgreSQL as jsonb. */
export const MAX_SHEET_ROWS = 200_000;
export const MAX_SHEET_COLUMNS = 500;

const NUMBER_TEXT = /^\s*-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?\s*$/i;

const tooBig = (what: string) => errors.validation([{ path: 'file', message: `The file has too many ${what}` }]);

/** Unique, non-empty header names: blanks become `column_<n>`, repeats get `_2`, `_3`. */
function headerNames(header: unknown[]): string[] {
  const seen = new Map<string, number>();
  return header.map((cell, i) => {
    const base = (cell === null || cell === undefined ? '' : String(cell)).trim().slice(0, 255) || `column_${i + 1}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}_${n}`;
  });
}

/**
 * Types each column from its values: `number` when every value is a number (or, from CSV, number text),
 * `boolean` when every value is true/false, else `text`; cells become values of that type, blanks null.
 */
export function typeSheet(name: string, records: unknown[][]): ParsedSheet {
  const [header = [], ...body] = records;
  if (header.length > MAX_SHEET_COLUMNS) throw tooBig('columns');
  const names = headerNames(header);
  const blank = (v: unknown) => v === null || v === undefined || v === '';
  const columns: SheetColumn[] = names.map((colName, i) => {
    const values = body.map((r) => r[i]).filter((v) => !blank(v));
    const nullable = values.length < body.length;
    if (values.every((v) => typeof v === 'number' || (typeof v === 'string' && NUMBER_TEXT.test(v)))) {
      return { name: colName, type: values.length > 0 ? 'number' : 'text', nullable };
    }
    if (values.every((v) => typeof v === 'boolean' || (typeof v === 'string' && /^(true|false)$/i.test(v)))) {
      return { name: colName, type: 'boolean', nullable };
    }
    return { name: colName, type: 'text', nullable };
  });
  const rows = body.map((r) =>
    columns.map((c, i) => {
      const v = r[i];
      if (blank(v)) return null;
      if (c.type === 'number') return Number(v);
      if (c.type === 'boolean') return typeof v === 'boolean' ? v : String(v).toLowerCase() === 'true';
      return String(v);
    }),
  );
  return { name, columns, rows };
}

/** Parses CSV (UTF-8, optional BOM, first row the header). @throws 400 for malformed CSV */
export async function parseCsv(name: string, input: Readable): Promise<ParsedSheet[]> {
  const records: unknown[][] = [];
  const parser = input.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1 << 20 }),
  );
  try {
    for await (const record of parser) {
      if (records.length > MAX_SHEET_ROWS) throw tooBig('rows');
      records.push(record as unknown[]);
    }
  } catch (err) {
    input.destroy();
    if ((err as { code?: string }).code?.startsWith('CSV_')) {
      throw errors.validation([{ path: 'file', message: `Not valid CSV: ${(err as Error).message}` }]);
    }
    throw err;
  }
  return [typeSheet(name, records)];
}

/** A cell as a plain value: formulas give their result, rich text its text, dates their ISO form. */
function cellValue(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object') return value;
  if ('result' in value) return cellValue((value.result ?? null) as ExcelJS.CellValue);
  if ('richText' in value) return value.richText.map((t) => t.text).join('');
  if ('text' in value) return String(value.text);
  return null;
}

/**
 * Parses an XLSX workbook the zip guard checked, streaming: one sheet per worksheet, named `<file>.<worksheet>`.
 * @throws 400 for a file that is not an XLSX workbook or holds too much
 */
export async function parseXlsx(base: string, zip: GuardedZip): Promise<ParsedSheet[]> {
  const sheets: ParsedSheet[] = [];
  let total = 0;
  try {
    const reader = await streamWorkbook(zip, {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      worksheets: 'emit',
      entries: 'emit',
    });
    for await (const worksheet of reader) {
      const records: unknown[][] = [];
      const ws = worksheet as unknown as AsyncIterable<ExcelJS.Row> & { name: string };
      for await (const row of ws) {
        if (++total > MAX_SHEET_ROWS) throw tooBig('rows');
        const values = (row.values as ExcelJS.CellValue[]).slice(1);
        if (values.length > MAX_SHEET_COLUMNS) throw tooBig('columns');
        records.push(Array.from(values, (v) => cellValue(v)));
      }
      sheets.push(typeSheet(`${base}.${ws.name}`.slice(0, 255), records));
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'validation_error') throw err;
    throw errors.validation([{ path: 'file', message: 'Not a readable XLSX workbook' }]);
  }
  if (sheets.length === 0) throw errors.validation([{ path: 'file', message: 'The workbook has no worksheets' }]);
  return sheets;
}
