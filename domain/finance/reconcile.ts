import type { EntityManager } from '@mikro-orm/postgresql';
import { FinanceRun, type ProposedMatch } from '../../db/entities/FinanceRun';
import { FinanceTransaction } from '../../db/entities/FinanceTransaction';
import type { Storage } from '../../platform/storage/storage';
import type { ZipLimits } from '../../platform/zipGuard';
import { readDocuments, type FinanceDocument } from './documents';
import { microsToAmount, presentMoney } from './money';
import { dateText } from './presenters';

/** Days between a transaction and a document date that still count as the same payment. */
export const DATE_WINDOW_DAYS = 7;

const DAY_MS = 24 * 3600 * 1000;
const days = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / DAY_MS;

/** Words of a transaction's counterparty and description worth looking for in a document. */
function words(t: FinanceTransaction): string[] {
  const text = `${t.counterparty ?? ''} ${t.description}`.toLowerCase();
  return [...new Set(text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4 && !/^\d+$/.test(w)))];
}

interface Candidate {
  transaction: FinanceTransaction;
  document: FinanceDocument;
  score: number;
  reason: string;
}

/**
 * Pairs transactions with documents: the document must show the transaction's amount exactly, and either
 * a date within {@link DATE_WINDOW_DAYS} days or the counterparty's name (both score higher). Best pairs
 * first; each transaction and each document is used once.
 */
export function matchDocuments(transactions: FinanceTransaction[], documents: FinanceDocument[]): ProposedMatch[] {
  const candidates: Candidate[] = [];
  for (const t of transactions) {
    const amount = Math.abs(t.amountMicros);
    const date = dateText(t.date);
    const names = words(t);
    for (const d of documents) {
      if (!d.amounts.includes(amount)) continue;
      const nearest = d.dates.length ? Math.min(...d.dates.map((x) => days(x, date))) : Infinity;
      const inWindow = nearest <= DATE_WINDOW_DAYS;
      const text = d.text.toLowerCase();
      const named = names.filter((w) => text.includes(w));
      if (!inWindow && named.length === 0) continue;
      const score = (inWindow ? 10 - nearest : 0) + named.length * 5;
      const reason = [
        `amount ${microsToAmount(amount)}`,
        inWindow ? `date within ${nearest} day(s)` : null,
        named.length ? `counterparty ${named.join(', ')}` : null,
      ]
        .filter(Boolean)
        .join('; ');
      candidates.push({ transaction: t, document: d, score, reason });
    }
  }
  candidates.sort((a, b) => b.score - a.score);
  const usedTx = new Set<string>();
  const usedDoc = new Set<string>();
  const matches: ProposedMatch[] = [];
  for (const c of candidates) {
    const docKey = `${c.document.fileId}/${c.document.where}`;
    if (usedTx.has(c.transaction.id) || usedDoc.has(docKey)) continue;
    usedTx.add(c.transaction.id);
    usedDoc.add(docKey);
    matches.push({
      transactionId: c.transaction.id,
      fileId: c.document.fileId,
      amount: presentMoney(c.transaction.amountMicros, c.transaction.currency).amount,
      currency: c.transaction.currency,
      date: dateText(c.transaction.date),
      reason: `${c.document.filename} (${c.document.where}): ${c.reason}`,
    });
  }
  return matches;
}

/**
 * The `finance_reconcile` tool: reads the run's documents and unreconciled transactions in its dates and
 * stores the proposed matches on the finance run (the only ones approval can reconcile).
 */
export async function proposeMatches(
  em: EntityManager,
  storage: Storage,
  financeRun: FinanceRun,
  zipLimits: ZipLimits,
): Promise<{ matches: ProposedMatch[]; unreadable: Array<{ fileId: string; message: string }> }> {
  const params = financeRun.params as { from: string; to: string; fileIds: string[] };
  const workspaceId = financeRun.workspace.id;
  const { documents, unreadable } = await readDocuments(em, storage, workspaceId, params.fileIds, zipLimits);
  const transactions = await em.find(
    FinanceTransaction,
    { workspace: workspaceId, reconciled: false, date: { $gte: params.from, $lte: params.to } },
    { orderBy: { date: 'asc', id: 'asc' }, limit: 10_000 },
  );
  const matches = matchDocuments(transactions, documents);
  financeRun.proposals = matches;
  await em.flush();
  return { matches, unreadable };
}

/**
 * The `finance_apply_matches` tool, which runs only once a person approved it at the run's gate: marks the
 * approved matches reconciled in one transaction. Only matches the run itself proposed count, whatever the
 * call's arguments say; applying twice (a retried activity) changes nothing more.
 */
export async function applyMatches(
  em: EntityManager,
  financeRun: FinanceRun,
  args: Record<string, unknown>,
): Promise<{ reconciled: number; matches: ProposedMatch[] }> {
  const asked = Array.isArray(args.matches) ? (args.matches as Array<Partial<ProposedMatch>>) : [];
  const key = (m: Partial<ProposedMatch>) => `${m.transactionId}/${m.fileId}`;
  const wanted = new Set(asked.map(key));
  const approved = financeRun.proposals.filter((m) => wanted.has(key(m)));
  let reconciled = 0;
  await em.transactional(async (tx) => {
    for (const m of approved) {
      reconciled += await tx.nativeUpdate(
        FinanceTransaction,
        { id: m.transactionId, workspace: financeRun.workspace.id },
        { reconciled: true, reconciledFileId: m.fileId },
      );
    }
  });
  return { reconciled, matches: approved };
}
