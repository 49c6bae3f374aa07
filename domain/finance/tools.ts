import type { ToolSpec } from '../../workflows/agentTurn';
import type { ToolDeps, ToolRegistry } from '../tools/registry';
import type { Orm } from '../../db/orm';
import { FinanceRun } from '../../db/entities/FinanceRun';
import type { Storage } from '../../platform/storage/storage';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from '../../platform/zipGuard';
import { applyMatches, proposeMatches } from './reconcile';
import { buildReport } from './report';

export const FINANCE_RECONCILE = 'finance_reconcile';
export const FINANCE_APPLY_MATCHES = 'finance_apply_matches';
export const FINANCE_REPORT = 'finance_report';

/**
 * The finance agent's tools (docs/api/finance.md). They act only for runs started by the finance routes
 * (a finance run row names the run), on that run's workspace, dates and files, whatever the arguments say:
 * an agent of any other run cannot read the workspace's finances through them.
 */
export const FINANCE_TOOL_SPECS: ToolSpec[] = [
  {
    name: FINANCE_RECONCILE,
    description:
      "Match this finance run's transactions to its invoices and receipts (amount, date window, counterparty); returns the proposed matches.",
    parameters: { type: 'object', properties: {} },
  },
  {
    name: FINANCE_APPLY_MATCHES,
    description:
      'Mark the proposed matches reconciled (after approval). Takes { matches } as finance_reconcile returned them.',
    parameters: { type: 'object', properties: { matches: { type: 'array', items: { type: 'object' } } } },
  },
  {
    name: FINANCE_REPORT,
    description: "Build this finance run's monthly or cash-flow report and write it to the file library.",
    parameters: { type: 'object', properties: {} },
  },
];

/** Runs a finance tool for a run. @throws Error for a run that is not a finance run of the right kind */
export async function runFinanceTool(
  orm: Orm,
  storage: Storage,
  name: string,
  runId: string,
  args: Record<string, unknown>,
  zipLimits: ZipLimits,
  step: number | null = null,
): Promise<string> {
  const em = orm.em.fork();
  const financeRun = await em.findOne(FinanceRun, { runId });
  if (!financeRun) throw new Error(`${name} works only in runs started by the finance routes`);
  if (name === FINANCE_REPORT) {
    if (financeRun.kind !== 'report') throw new Error(`${name} belongs to report runs`);
    return JSON.stringify(await buildReport(em, storage, financeRun, step));
  }
  if (financeRun.kind !== 'reconciliation') throw new Error(`${name} belongs to reconciliation runs`);
  if (name === FINANCE_RECONCILE) return JSON.stringify(await proposeMatches(em, storage, financeRun, zipLimits));
  return JSON.stringify(await applyMatches(em, financeRun, args));
}

/** Adds the finance tools to a tool registry (they run only where `orm` and `storage` are given: the worker). */
export function registerFinanceTools(tools: ToolRegistry, deps: ToolDeps): void {
  for (const spec of FINANCE_TOOL_SPECS) {
    tools.register(spec, (args, context) => {
      if (!deps.orm || !deps.storage || !context) throw new Error(`${spec.name} is not available here`);
      return runFinanceTool(
        deps.orm,
        deps.storage,
        spec.name,
        context.runId,
        args,
        deps.zipLimits ?? DEFAULT_ZIP_LIMITS,
        context.stepIndex ?? null,
      );
    });
  }
}
