import type { FinanceRuleMatch, FinanceTransaction } from '@svc/client';

/**
 * Whether a rule's conditions hold for a transaction, as the service decides (docs/api/finance.md): every
 * condition given must hold; `descriptionContains` ignores case; amounts are signed and inclusive. The
 * pattern runs on the browser's RegExp, which reads RE2's syntax the same for the patterns RE2 accepts;
 * one the browser cannot read matches nothing here, and the service is the judge when the rule is saved.
 */
export function compileMatch(match: FinanceRuleMatch): { test: (tx: FinanceTransaction) => boolean; error?: string } {
  let regex: RegExp | null = null;
  if (match.descriptionRegex) {
    try {
      regex = new RegExp(match.descriptionRegex, 'u');
    } catch (err) {
      return { test: () => false, error: (err as Error).message };
    }
  }
  const contains = match.descriptionContains?.toLowerCase();
  return {
    test(tx) {
      const amount = Number(tx.amount);
      if (match.amountMin !== undefined && amount < match.amountMin) return false;
      if (match.amountMax !== undefined && amount > match.amountMax) return false;
      if (contains && !tx.description.toLowerCase().includes(contains)) return false;
      if (regex && !regex.test(tx.description)) return false;
      return true;
    },
  };
}

/** A rule's conditions in words. */
export function describeMatch(match: FinanceRuleMatch): string {
  const parts: string[] = [];
  if (match.descriptionContains) parts.push(`description contains "${match.descriptionContains}"`);
  if (match.descriptionRegex) parts.push(`description matches /${match.descriptionRegex}/`);
  if (match.amountMin !== undefined) parts.push(`amount ≥ ${match.amountMin}`);
  if (match.amountMax !== undefined) parts.push(`amount ≤ ${match.amountMax}`);
  return parts.join(' and ');
}
