import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parse } from 'csv-parse';
import { File } from '../../db/entities/File';
import { pdf2json } from '../../platform/lazyPackages';
import type { Storage } from '../../platform/storage/storage';
import { loadWorkbook } from '../../platform/xlsxReader';
import { guardZip, type ZipLimits } from '../../platform/zipGuard';
import { detectSeparator } from './csvImport';
import { isoDate } from './dates';
import { parseAmountMicros } from './money';

/**
 * An invoice or receipt read from the file library for reconciliation (docs/api/finance.md): a PDF is one
 * document; each row of a CSV or XLSX sheet is one (a list of receipts). Amounts are micro-units.
 */
export interface FinanceDocument {
  fileId: string;
  filename: string;
  /** `page` for a PDF or text file, `row <n>` of a sheet. */
  where: string;
  text: string;
  /** Amounts on a "total" line when there is one, else every amount found. */
  amounts: number[];
  dates: string[];
}

/** Bytes one document may have: as much as an upload. */
const MAX_BYTES = 25 * 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_BYTES) throw new Error('document too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The text of a PDF, through pdf2json (a maintained pure-JavaScript parser built on pdf.js). */
export async function pdfText(bytes: Buffer): Promise<string> {
  const PDFParser = await pdf2json();
  return new Promise((resolve, reject) => {
    const parser = new PDFParser(null, true);
    parser.on('pdfParser_dataError', (err: Error | { parserError: Error }) =>
      reject('parserError' in err ? err.parserError : err),
    );
    parser.on('pdfParser_dataReady', () => resolve(parser.getRawTextContent()));
    // pdf2json reads the Buffer's whole underlying ArrayBuffer: a Buffer from Node's shared pool (any small
    // one) starts at an offset in it, so the bytes go over in an ArrayBuffer of their own
    const own = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
    parser.parseBuffer(Buffer.from(own), 0);
  });
}

/** The rows of a CSV or XLSX sheet; a workbook passes the zip guard first. @throws ZipRefused past its limits */
async function sheetRows(bytes: Buffer, kind: 'csv' | 'xlsx', zipLimits: ZipLimits): Promise<string[][]> {
  if (kind === 'csv') {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    const rows: string[][] = [];
    const parser = parse(text, { delimiter: detectSeparator(text), relax_column_count: true, skip_empty_lines: true });
    for await (const record of parser as AsyncIterable<string[]>) rows.push(record);
    return rows;
  }
  const workbook = await loadWorkbook(await guardZip(bytes, zipLimits));
  const rows: string[][] = [];
  workbook.eachSheet((sheet) =>
    sheet.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell) => {
        const v = cell.value;
        cells.push(v instanceof Date ? v.toISOString().slice(0, 10) : v === null || v === undefined ? '' : String(v));
      });
      rows.push(cells);
    }),
  );
  return rows;
}

// an amount with two decimals, not part of a date such as 09.10.2026
const AMOUNT =
  /(?<![\d.,])[-+]?\d{1,3}(?:[.,\s\u00a0]\d{3})*[.,]\d{2}(?![\d]|[.,]\d)|(?<![\d.,])[-+]?\d+[.,]\d{2}(?![\d]|[.,]\d)/g;
const TOTAL = /total|amount due|balance due|summe|betrag|gesamt|montant/i;

/** Amounts written like `1,234.56`, `1.234,56` or `42.17` (the last `.`/`,` before two digits is the decimal). */
export function findAmounts(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const raw = m[0];
    const decimal = raw.charAt(raw.length - 3) === ',' ? ',' : '.';
    const micros = parseAmountMicros(raw, decimal);
    if (micros !== null && micros !== 0) out.push(Math.abs(micros));
  }
  return out;
}

/** Dates written `YYYY-MM-DD`, `DD.MM.YYYY` or `MM/DD/YYYY`. */
export function findDates(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) out.push(isoDate(+m[1], +m[2], +m[3]) ?? '');
  for (const m of text.matchAll(/\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g)) out.push(isoDate(+m[3], +m[2], +m[1]) ?? '');
  for (const m of text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g)) out.push(isoDate(+m[3], +m[1], +m[2]) ?? '');
  return out.filter(Boolean);
}

function document(file: File, where: string, text: string): FinanceDocument {
  const totals = text
    .split(/\r?\n/)
    .filter((line) => TOTAL.test(line))
    .flatMap(findAmounts);
  return {
    fileId: file.id,
    filename: file.filename,
    where,
    text,
    amounts: totals.length ? totals : findAmounts(text),
    dates: findDates(text),
  };
}

/**
 * Reads the workspace's files among `fileIds` as documents. A file that cannot be read is reported in
 * `unreadable` (with why) rather than failing the run; so is a workbook the zip guard refuses (`zipLimits`).
 */
export async function readDocuments(
  em: EntityManager,
  storage: Storage,
  workspaceId: string,
  fileIds: string[],
  zipLimits: ZipLimits,
): Promise<{ documents: FinanceDocument[]; unreadable: Array<{ fileId: string; message: string }> }> {
  const files = await em.find(File, { id: { $in: fileIds }, workspace: workspaceId });
  const documents: FinanceDocument[] = [];
  const unreadable: Array<{ fileId: string; message: string }> = [];
  for (const file of files) {
    try {
      const bytes = await readAll(await storage.get(file.storageKey));
      const ext = /\.([^.]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
      if (ext === 'pdf' || file.mime === 'application/pdf') {
        documents.push(document(file, 'page', await pdfText(bytes)));
      } else if (ext === 'csv' || ext === 'xlsx') {
        const rows = await sheetRows(bytes, ext, zipLimits);
        rows.forEach((cells, i) => {
          if (i > 0) documents.push(document(file, `row ${i + 1}`, cells.join(' | ')));
        });
      } else {
        documents.push(document(file, 'page', bytes.toString('utf8')));
      }
    } catch (err) {
      unreadable.push({ fileId: file.id, message: (err as Error).message ?? String(err) });
    }
  }
  return { documents, unreadable };
}
