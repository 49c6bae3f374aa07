import { RE2JS } from 're2js';
import type { FinanceRule } from '../../db/entities/FinanceRule';
import { errors } from '../errors';

/**
 * A rule ready to test transactions. Regular expressions run on RE2JS, a port of RE2: matching time is
 * linear in the input whatever the pattern, so a pattern such as `(a+)+$` cannot hang an import
 * (docs/api/finance.md).
 */
export interface CompiledRule {
  id: string;
  categoryId: string;
  priority: number;
  test(description: string, amountMicros: number): boolean;
}

/**
 * Compiles a pattern with RE2 semantics (no backreferences or lookaround: those need backtracking).
 * @throws `validation_error` at `path` for a pattern RE2 does not accept
 */
export function compileRegex(pattern: string, path: string): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (err) {
    throw errors.validation([{ path, message: `Not a supported regular expression: ${(err as Error).message}` }]);
  }
}

export function compileRule(rule: FinanceRule): CompiledRule {
  const contains = rule.descriptionContains?.toLowerCase() ?? null;
  const regex = rule.descriptionRegex === null ? null : RE2JS.compile(rule.descriptionRegex);
  const { amountMinMicros: min, amountMaxMicros: max } = rule;
  return {
    id: rule.id,
    categoryId: rule.category.id,
    priority: rule.priority,
    test(description, amountMicros) {
      if (min !== null && amountMicros < min) return false;
      if (max !== null && amountMicros > max) return false;
      if (contains !== null && !description.toLowerCase().includes(contains)) return false;
      if (regex !== null && !regex.matcher(description).find()) return false;
      return true;
    },
  };
}

/**
 * Rules in the order they are tried: highest priority first, then the older rule. The first rule whose
 * every condition holds sets the category.
 */
export function orderRules(rules: FinanceRule[]): CompiledRule[] {
  return [...rules]
    .sort(
      (a, b) => b.priority - a.priority || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    )
    .map(compileRule);
}

/** The category the first matching rule gives, or null. */
export function categorize(rules: CompiledRule[], description: string, amountMicros: number): string | null {
  for (const rule of rules) if (rule.test(description, amountMicros)) return rule.categoryId;
  return null;
}
