/**
 * Every XLSX (zip) a caller sends passes the zip guard before a parser inflates it (docs/api/limits.md):
 * exceljs's read APIs are called only in the guard's own module and in platform/xlsxReader.ts, whose
 * functions take nothing but `GuardedZip` bytes. A failure lists `file:line: call`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { matchingLines, ROOT, sourceFiles } from './importGraph';

/** The modules that may call exceljs's readers: the guard, and the reader that takes only guarded bytes. */
const ALLOWED = new Set(['platform/zipGuard.ts', 'platform/xlsxReader.ts']);

const SOURCE_DIRS = ['api', 'activities', 'domain', 'db', 'platform', 'workflows', 'worker', 'scripts'];

/** exceljs's calls that read a workbook: `xlsx.load`, `xlsx.read`, `xlsx.readFile`, the streaming WorkbookReader. */
const READ_CALLS = [/\bxlsx\s*\.\s*(load|read|readFile)\s*\(/, /\bstream\s*\.\s*xlsx\s*\.\s*WorkbookReader\b/];

/** The lines of `text` (a file named `file`) that call exceljs's read APIs, as `file:line: code`. */
export function xlsxReads(file: string, text: string): string[] {
  if (ALLOWED.has(file)) return [];
  return matchingLines(
    file,
    text,
    (line) => !line.startsWith('//') && !line.startsWith('*') && READ_CALLS.some((re) => re.test(line)),
  );
}

describe('XLSX readers', () => {
  it('catches a planted read outside the guard, and lets the guarded reader be', () => {
    const planted = [
      "import ExcelJS from 'exceljs';",
      'const wb = new ExcelJS.Workbook();',
      'await wb.xlsx.load(bytes);',
      'const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {});',
      'await wb.xlsx.readFile(path);',
      'await wb.xlsx.writeBuffer();',
    ].join('\n');
    expect(xlsxReads('domain/finance/planted.ts', planted)).toEqual([
      'domain/finance/planted.ts:3: await wb.xlsx.load(bytes);',
      'domain/finance/planted.ts:4: const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {});',
      'domain/finance/planted.ts:5: await wb.xlsx.readFile(path);',
    ]);
    expect(xlsxReads('platform/xlsxReader.ts', planted)).toEqual([]);
  });

  it('no source file outside the guard and its reader calls exceljs to read a workbook', () => {
    const files = sourceFiles(SOURCE_DIRS);
    expect(files).toContain('platform/xlsxReader.ts');
    const found = files.flatMap((f) => xlsxReads(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the guarded reader takes only bytes the guard answered', () => {
    const reader = fs.readFileSync(path.join(ROOT, 'platform/xlsxReader.ts'), 'utf8');
    const exported = reader.match(/export (async )?function \w+\([^)]*\)/g) ?? [];
    expect(exported.length).toBeGreaterThan(0);
    for (const signature of exported) expect(signature).toMatch(/\(\s*zip: GuardedZip[,)]/);
  });
});
