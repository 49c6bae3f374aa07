import { createKey, createWorkspace } from '../../test/helpers/live/accounts';
import { fmt, table } from '../lib/stats';
import type { BenchContext, CaseResult } from '../lib/context';

const ROWS = 100_000;

/** Micro-units of a cent amount as the API writes USD: `"1234.50"`. */
const centsText = (micros: bigint) =>
  `${micros / 1_000_000n}.${String((micros % 1_000_000n) / 10_000n).padStart(2, '0')}`;

/** The bank export: `ROWS` rows of amounts with cents that a float sum would get wrong, over 12 months. */
function bankExport(): { csv: string; inMicros: bigint; outMicros: bigint } {
  const lines = ['date,description,amount'];
  let inMicros = 0n;
  let outMicros = 0n;
  for (let i = 0; i < ROWS; i++) {
    const month = String(1 + (i % 12)).padStart(2, '0');
    const day = String(1 + (i % 28)).padStart(2, '0');
    const cents = (i % 2 === 0 ? -1 : 1) * (10 + (i % 9_990));
    const text = `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
    lines.push(`2026-${month}-${day},Payment ${i},${text}`);
    if (cents > 0) inMicros += BigInt(cents) * 10_000n;
    else outMicros += BigInt(-cents) * 10_000n;
  }
  return { csv: lines.join('\n'), inMicros, outMicros };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: Math.round(performance.now() - t0), value };
}

/**
 * Case 7: a finance import of a 100,000-row CSV bank export (one transaction, fingerprints, rules) and the
 * summary over those rows by category and by month; the totals must equal the exact sums computed here
 * in integers (docs/api/finance.md). Also times re-importing the same export (every row a duplicate).
 */
export async function financeCase(ctx: BenchContext): Promise<CaseResult> {
  const ws = await createWorkspace(ctx.apiUrl, ctx.orm);
  const key = await createKey(ctx.orm, ws.id, ['finance:read', 'finance:write', 'files:write']);
  const auth = { authorization: key };
  const { csv, inMicros, outMicros } = bankExport();
  const uploaded = await fetch(`${ctx.apiUrl}/v1/files`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'text/csv', 'x-filename': 'bank-100k.csv' },
    body: csv,
  });
  const { id: fileId } = (await uploaded.json()) as { id: string };
  const body = JSON.stringify({
    fileId,
    format: 'csv',
    mapping: { date: 'date', description: 'description', amount: 'amount' },
  });
  const post = () =>
    fetch(`${ctx.apiUrl}/v1/finance/imports`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    }).then((r) => r.json() as Promise<{ imported: number; duplicates: number }>);
  const first = await timed(post);
  const again = await timed(post);
  const get = (qs: string) => fetch(`${ctx.apiUrl}/v1/finance/summary?${qs}`, { headers: auth }).then((r) => r.json());
  const byCategory = await timed(() => get('groupBy=category'));
  const byMonth = await timed(() => get('groupBy=month'));
  // The summary's amounts are exact decimal text per currency; the export is all USD, in cents.
  const totals = (byMonth.value as { totals: Array<{ currency: string; in: string; out: string }> }).totals[0];
  const exact = totals.in === centsText(inMicros) && totals.out === centsText(outMicros) ? 'yes' : 'no';
  const markdown = [
    `### 7. Finance: import of ${fmt(ROWS)} rows and the summary`,
    '',
    table(
      ['step', 'ms', 'result'],
      [
        ['import (new rows)', first.ms, `${fmt(first.value.imported)} imported`],
        ['import again (all duplicates)', again.ms, `${fmt(again.value.duplicates)} duplicates`],
        ['summary by category', byCategory.ms, ''],
        ['summary by month', byMonth.ms, `totals exact: ${exact}`],
      ],
    ),
  ].join('\n');
  return {
    title: 'finance',
    markdown,
    data: {
      rows: ROWS,
      importMs: first.ms,
      reimportMs: again.ms,
      summaryCategoryMs: byCategory.ms,
      summaryMonthMs: byMonth.ms,
      imported: first.value.imported,
      duplicates: again.value.duplicates,
      totalsExact: exact === 'yes',
    },
  };
}
