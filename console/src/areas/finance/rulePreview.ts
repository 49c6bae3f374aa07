import type { FinanceRuleMatch, FinanceTransaction } from '@svc/client';
import { RE2JS } from 're2js';

/**
 * Whether a rule's conditions hold for a transaction, decided as the service decides it
 * (domain/finance/ruleEngine.ts, docs/api/finance.md): every condition given must hold; `descriptionContains`
 * ignores case; amounts are signed and inclusive; the pattern runs on RE2, as on the service, so the preview
 * reads RE2's syntax (`(?i)`, `[[:digit:]]`, `\pL`) as the saved rule will, refuses what the service refuses
 * with the service's words, and a pattern that would backtrack cannot freeze the page while the user types.
 * This module and re2js load with the rule form only (RulesPage).
 */
export function compileMatch(match: FinanceRuleMatch): { test: (tx: FinanceTransaction) => boolean; error?: string } {
  let regex: RE2JS | null = null;
  if (match.descriptionRegex) {
    try {
      regex = RE2JS.compile(match.descriptionRegex);
    } catch (err) {
      return { test: () => false, error: `Not a supported regular expression: ${(err as Error).message}` };
    }
  }
  const contains = match.descriptionContains?.toLowerCase();
  return {
    test(tx) {
      const amount = Number(tx.amount);
      if (match.amountMin !== undefined && amount < match.amountMin) return false;
      if (match.amountMax !== undefined && amount > match.amountMax) return false;
      if (contains && !tx.description.toLowerCase().includes(contains)) return false;
      if (regex && !regex.matcher(tx.description).find()) return false;
      return true;
    },
  };
}
