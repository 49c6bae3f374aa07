import type { ImportLineError } from '../../db/entities/FinanceImport';

/** One transaction read from a bank export, before rules and fingerprints. */
export interface ParsedRow {
  line: number;
  date: string;
  description: string;
  amountMicros: number;
  currency: string;
  counterparty: string | null;
  /** The bank's own id of the transaction (OFX `FITID`), when the export has one. */
  bankId: string | null;
  /** The account the file names for this row (an OFX statement's `ACCTID`), when it names one. */
  account: string | null;
}

/** What a parser read: the data rows it saw, those it could use, and one error per line it could not. */
export interface ParsedExport {
  rows: number;
  parsed: ParsedRow[];
  errors: ImportLineError[];
}

/** Descriptions longer than this are cut: the column holds 1000 characters. */
export const MAX_DESCRIPTION = 1000;

export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max) : t;
}
