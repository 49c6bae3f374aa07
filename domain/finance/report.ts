import type { EntityManager } from '@mikro-orm/postgresql';
import { File } from '../../db/entities/File';
import type { FinanceRun } from '../../db/entities/FinanceRun';
import { exceljs, pdfLib } from '../../platform/lazyPackages';
import type { Storage } from '../../platform/storage/storage';
import { ApiError } from '../errors';
import { storeRunFile } from '../files/runFiles';
import type { QuotaDetails } from '../quotas/quotas';
import { presentMoney } from './money';

/**
 * One line of a report, in one currency: `in`, `out` (positive) and `net` are exact decimal text in
 * `currency`, as the summary and a transaction's `amount` write it (docs/api/finance.md#money).
 */
export interface ReportLine {
  month: string;
  currency: string;
  category: string | null;
  in: string;
  out: string;
  net: string;
  count: number;
}

export interface FinanceReport {
  kind: 'monthly' | 'cashflow';
  from: string;
  to: string;
  /** monthly: per month and category; cashflow: per month, with the running balance of the period. */
  lines: Array<ReportLine & { cumulative?: string }>;
  /** null when the workspace's storage quota could not take the file: the lines are the report then */
  fileId: string | null;
  filename: string | null;
  /** why there is no file (`details.quota` of the refusal), when there is none */
  quota?: QuotaDetails;
}

interface Row {
  month: string;
  currency: string;
  category: string | null;
  in_micros: string;
  out_micros: string;
  net_micros: string;
  count: string;
}

async function reportRows(em: EntityManager, workspaceId: string, kind: string, from: string, to: string) {
  const byCategory = kind === 'monthly';
  return em.getConnection().execute<Row[]>(
    `select to_char(t.date, 'YYYY-MM') as month, t.currency, ${byCategory ? 'c.name' : 'null'} as category,
       coalesce(sum(t.amount_micros) filter (where t.amount_micros > 0), 0)::text as in_micros,
       coalesce(-sum(t.amount_micros) filter (where t.amount_micros < 0), 0)::text as out_micros,
       sum(t.amount_micros)::text as net_micros, count(*)::text as count
     from finance_transactions t left join finance_categories c on c.id = t.category_id
     where t.workspace_id = ? and t.date >= ? and t.date <= ?
     group by 1, 2, 3 order by 1, 2, 3 nulls last`,
    [workspaceId, from, to],
  );
}

async function pdfBytes(title: string, lines: string[]): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await pdfLib();
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let page = doc.addPage();
  let y = page.getHeight() - 50;
  for (const [i, line] of [title, '', ...lines].entries()) {
    if (y < 50) {
      page = doc.addPage();
      y = page.getHeight() - 50;
    }
    // the standard fonts encode WinAnsi only: anything else is shown as `?`
    page.drawText(line.replace(/[^\x20-\x7e\xa0-\xff]/g, '?'), { x: 50, y, size: i === 0 ? 16 : 10, font });
    y -= i === 0 ? 24 : 14;
  }
  return Buffer.from(await doc.save());
}

async function xlsxBytes(lines: FinanceReport['lines']): Promise<Buffer> {
  const workbook = new (await exceljs()).Workbook();
  const sheet = workbook.addWorksheet('Cash flow');
  sheet.addRow(['month', 'currency', 'in', 'out', 'net', 'cumulative', 'count']);
  // Numbers, so the sheet can add them up; each row's currency says what they count.
  for (const l of lines) {
    sheet.addRow([
      l.month,
      l.currency,
      Number(l.in),
      Number(l.out),
      Number(l.net),
      l.cumulative === undefined ? null : Number(l.cumulative),
      l.count,
    ]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const PDF_MIME = 'application/pdf';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The `finance_report` tool: the run's monthly report (per month and category, as a PDF) or cash-flow
 * report (per month with the running balance, as an XLSX workbook), and the file written to the
 * workspace's library as an artifact of the run, written by `step`. A retried call finds the file it wrote and
 * does not write another.
 */
export async function buildReport(
  em: EntityManager,
  storage: Storage,
  financeRun: FinanceRun,
  step: number | null,
): Promise<FinanceReport> {
  const { kind, from, to } = financeRun.params as { kind: 'monthly' | 'cashflow'; from: string; to: string };
  const workspaceId = financeRun.workspace.id;
  const rows = await reportRows(em, workspaceId, kind, from, to);
  const running = new Map<string, bigint>();
  const lines = rows.map((r) => {
    const money = (micros: string | bigint) => presentMoney(micros, r.currency).amount;
    const line: ReportLine & { cumulative?: string } = {
      month: r.month,
      currency: r.currency,
      category: r.category,
      in: money(r.in_micros),
      out: money(r.out_micros),
      net: money(r.net_micros),
      count: Number(r.count),
    };
    if (kind === 'cashflow') {
      const total = (running.get(r.currency) ?? 0n) + BigInt(r.net_micros);
      running.set(r.currency, total);
      line.cumulative = money(total);
    }
    return line;
  });
  const filename = `finance-${kind}-${from}-${to}.${kind === 'monthly' ? 'pdf' : 'xlsx'}`;
  const existing = await em.findOne(File, { id: financeRun.id, workspace: workspaceId });
  if (!existing) {
    const bytes =
      kind === 'monthly'
        ? await pdfBytes(
            `Monthly report ${from} to ${to}`,
            lines.map(
              (l) =>
                `${l.month}  ${l.category ?? 'Uncategorised'}  ${l.currency}  in ${l.in}  out ${l.out}  net ${l.net}`,
            ),
          )
        : await xlsxBytes(lines);
    const mime = kind === 'monthly' ? PDF_MIME : XLSX_MIME;
    try {
      // the file id is the finance run's own id, so a retry of this call finds it instead of writing a second
      await storeRunFile(em, storage, {
        workspaceId,
        runId: financeRun.runId,
        step,
        fileId: financeRun.id,
        filename,
        mime,
        bytes,
      });
    } catch (err) {
      // A full library does not fail the run: the report's lines are its answer, without the file.
      const quota = err instanceof ApiError ? (err.details?.quota as QuotaDetails | undefined) : undefined;
      if (!quota) throw err;
      return { kind, from, to, lines, fileId: null, filename: null, quota };
    }
  }
  return { kind, from, to, lines, fileId: financeRun.id, filename };
}
