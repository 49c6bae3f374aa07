import { parse, type CsvError } from 'csv-parse';
import type { ImportLineError } from '../../db/entities/FinanceImport';
import { errors } from '../errors';
import { parseDate, type DateFormat } from './dates';
import { isCurrency, parseBankAmount } from './money';
import { clip, MAX_DESCRIPTION, type ParsedExport, type ParsedRow } from './parsedRow';

/** Which columns hold what (values are header names; docs/api/finance.md). */
export interface CsvMapping {
  date: string;
  description: string;
  amount?: string;
  debit?: string;
  credit?: string;
  currency?: string;
  counterparty?: string;
  dateFormat?: DateFormat;
  decimal?: '.' | ',';
  /** The currency of rows whose line names none (no currency column, no code or symbol in the amount). */
  defaultCurrency?: string;
  /** The file writes money out as positive and money in as negative (many card statements do). */
  negate?: boolean;
}

const SEPARATORS = [',', ';', '\t'] as const;

/** The separator of the header line: the one of `,`, `;`, tab that occurs most often outside quotes. */
export function detectSeparator(text: string): string {
  const counts = new Map<string, number>(SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

/**
 * Reads a CSV bank export with csv-parse: a UTF-8 BOM is dropped, quoted fields may hold separators and
 * line breaks, `decimal` says how amounts are written. A mapping naming a column the header lacks fails the
 * whole import (400 `validation_error`, nothing imported); a line that cannot be read is an error with its
 * line number and the other lines go on.
 */
export async function parseCsvExport(
  text: string,
  mapping: CsvMapping,
  defaultCurrency: string,
): Promise<ParsedExport> {
  const body = text.replace(/^\uFEFF/, '');
  const skipped: ImportLineError[] = [];
  const parser = parse(body, {
    delimiter: detectSeparator(body),
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined) => {
      // one bad line may raise several errors (each bad quote): it is one line to report
      const line = Number(err?.lines ?? 0);
      if (err && skipped.at(-1)?.line !== line) skipped.push({ line, message: err.message });
    },
  });
  const parsed: ParsedRow[] = [];
  const rowErrors: ImportLineError[] = [];
  let index: Record<string, number> | null = null;
  let rows = 0;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    if (!index) {
      index = headerIndex(record, mapping);
      continue;
    }
    rows++;
    const result = readRow(record, info.lines, index, mapping, defaultCurrency);
    if ('message' in result) rowErrors.push(result);
    else parsed.push(result);
  }
  if (!index) throw errors.validation([{ path: 'fileId', message: 'The CSV file has no header line' }]);
  rows += skipped.length;
  return { rows, parsed, errors: [...skipped, ...rowErrors].sort((a, b) => a.line - b.line) };
}

const FIELDS = ['date', 'description', 'amount', 'debit', 'credit', 'currency', 'counterparty'] as const;

function headerIndex(header: string[], mapping: CsvMapping): Record<string, number> {
  const names = header.map((h) => h.trim());
  const index: Record<string, number> = {};
  const missing = [];
  for (const field of FIELDS) {
    const column = mapping[field];
    if (column === undefined) continue;
    const at = names.indexOf(column.trim());
    if (at < 0) missing.push({ path: `mapping.${field}`, message: `The header has no column "${column}"` });
    index[field] = at;
  }
  if (missing.length) throw errors.validation(missing);
  return index;
}

function readRow(
  record: string[],
  line: number,
  index: Record<string, number>,
  mapping: CsvMapping,
  defaultCurrency: string,
): ParsedRow | ImportLineError {
  const cell = (field: string) => (index[field] === undefined ? '' : (record[index[field]] ?? '').trim());
  const date = parseDate(cell('date'), mapping.dateFormat);
  if (!date)
    return { line, message: `Invalid date "${cell('date')}" (expected ${mapping.dateFormat ?? 'YYYY-MM-DD'})` };
  const amount = readAmount(cell, mapping);
  if (typeof amount === 'string') return { line, message: amount };
  const column = cell('currency').toUpperCase();
  if (column && amount.currency && column !== amount.currency) {
    return { line, message: `The amount is written in ${amount.currency} but the currency column says ${column}` };
  }
  const currency = column || amount.currency || (mapping.defaultCurrency ?? defaultCurrency).toUpperCase();
  if (!isCurrency(currency)) return { line, message: `Unknown currency "${currency}"` };
  const description = clip(cell('description'), MAX_DESCRIPTION);
  if (!description) return { line, message: 'Empty description' };
  const counterparty = clip(cell('counterparty'), 200) || null;
  const micros = mapping.negate ? -amount.micros : amount.micros;
  return {
    line,
    date,
    description,
    amountMicros: micros === 0 ? 0 : micros,
    currency,
    counterparty,
    bankId: null,
    account: null,
  };
}

/**
 * The signed amount, and the currency its text names if any: one signed column, or a debit (money out) and
 * a credit (money in) column, each written as banks write amounts ({@link parseBankAmount}).
 */
function readAmount(
  cell: (field: string) => string,
  mapping: CsvMapping,
): { micros: number; currency: string | null } | string {
  const decimal = mapping.decimal ?? '.';
  if (mapping.amount !== undefined) {
    const v = parseBankAmount(cell('amount'), decimal);
    return v ?? `Invalid amount "${cell('amount')}"`;
  }
  const debitText = cell('debit');
  const creditText = cell('credit');
  const debit = debitText ? parseBankAmount(debitText, decimal) : { micros: 0, currency: null };
  const credit = creditText ? parseBankAmount(creditText, decimal) : { micros: 0, currency: null };
  if (debit === null) return `Invalid debit "${debitText}"`;
  if (credit === null) return `Invalid credit "${creditText}"`;
  if (!debitText && !creditText) return 'Neither debit nor credit has an amount';
  if (debit.currency && credit.currency && debit.currency !== credit.currency) {
    return `The debit is in ${debit.currency} and the credit in ${credit.currency}`;
  }
  return { micros: Math.abs(credit.micros) - Math.abs(debit.micros), currency: debit.currency ?? credit.currency };
}
