import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { exceljs } from './lazyPackages';
import type { GuardedZip } from './zipGuard';

/**
 * The one place exceljs reads a workbook, and only from bytes the zip guard checked (platform/zipGuard.ts):
 * both of its readers inflate every part they meet, the streaming one to a temporary file, before any row
 * limit of ours applies. A test in test/architecture keeps every other file off exceljs's read APIs.
 */

/** A streaming reader over a guarded workbook: iterate it for worksheets, each for rows. */
export async function streamWorkbook(
  zip: GuardedZip,
  options: Partial<ExcelJS.stream.xlsx.WorkbookStreamReaderOptions>,
): Promise<ExcelJS.stream.xlsx.WorkbookReader> {
  return new (await exceljs()).stream.xlsx.WorkbookReader(Readable.from([zip]), options);
}

/** A whole guarded workbook in memory. */
export async function loadWorkbook(zip: GuardedZip): Promise<ExcelJS.Workbook> {
  const workbook = new (await exceljs()).Workbook();
  await workbook.xlsx.load(zip as never);
  return workbook;
}
