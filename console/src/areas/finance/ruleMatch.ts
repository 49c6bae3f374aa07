import type { FinanceRuleMatch } from '@svc/client';

/** A rule's conditions in words. */
export function describeMatch(match: FinanceRuleMatch): string {
  const parts: string[] = [];
  if (match.descriptionContains) parts.push(`description contains "${match.descriptionContains}"`);
  if (match.descriptionRegex) parts.push(`description matches /${match.descriptionRegex}/`);
  if (match.amountMin !== undefined) parts.push(`amount ≥ ${match.amountMin}`);
  if (match.amountMax !== undefined) parts.push(`amount ≤ ${match.amountMax}`);
  return parts.join(' and ');
}
