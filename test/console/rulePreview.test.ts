/**
 * The console's preview of a new finance rule (console/src/areas/finance/rulePreview.ts) decides what the
 * service will decide once the rule is saved (domain/finance/ruleEngine.ts): the same transactions match, a
 * pattern the service refuses is refused with its words, and a pattern built to backtrack cannot hang the page.
 */
import type { FinanceTransaction } from '@svc/client';
import { compileMatch } from '../../console/src/areas/finance/rulePreview';
import type { FinanceRule } from '../../db/entities/FinanceRule';
import { ApiError } from '../../domain/errors';
import { compileRegex, compileRule } from '../../domain/finance/ruleEngine';

const DESCRIPTIONS = ['Bank FEE 12', 'bank fee', 'Coffee 4.50', 'a'.repeat(40) + '!', '2026', 'Zürich taxi', 'fee', ''];
// RE2's own syntax (which the browser reads differently or not at all), and one that backtracks in the browser
const PATTERNS = [
  '(?i)bank fee',
  '^[[:digit:]]+$',
  '\\pL+ taxi',
  'fee\\z',
  '(a+)+$',
  'Coffee \\d+\\.\\d\\d',
  '^$',
  'FEE',
];

const tx = (description: string, amount: string) => ({ description, amount }) as FinanceTransaction;

/** The service's verdict for a saved rule with this pattern and amount bounds. */
function serviceMatches(pattern: string, description: string, amount: string, min?: number, max?: number): boolean {
  const rule = {
    id: 'r',
    category: { id: 'c' },
    priority: 0,
    descriptionContains: null,
    descriptionRegex: pattern,
    amountMinMicros: min === undefined ? null : min * 1_000_000,
    amountMaxMicros: max === undefined ? null : max * 1_000_000,
  } as unknown as FinanceRule;
  return compileRule(rule).test(description, Math.round(Number(amount) * 1_000_000));
}

describe('the rule preview', () => {
  it('matches the transactions the service will match, pattern by pattern', () => {
    const differing: string[] = [];
    for (const pattern of PATTERNS) {
      const preview = compileMatch({ descriptionRegex: pattern, amountMin: -20, amountMax: 20 });
      expect({ pattern, error: preview.error }).toEqual({ pattern, error: undefined });
      for (const description of DESCRIPTIONS) {
        for (const amount of ['-25.00', '-20.00', '4.50', '20.01']) {
          const service = serviceMatches(pattern, description, amount, -20, 20);
          if (preview.test(tx(description, amount)) !== service) differing.push(`${pattern} ${description} ${amount}`);
        }
      }
    }
    expect(differing).toEqual([]);
    expect(compileMatch({ descriptionRegex: '(?i)bank fee' }).test(tx('Bank FEE 12', '-3.00'))).toBe(true);
    expect(compileMatch({ descriptionRegex: '(a+)+$' }).test(tx('a'.repeat(40) + '!', '1.00'))).toBe(false);
  });

  it('refuses what the service refuses, in the same words', () => {
    for (const pattern of ['(?=fee)', '(a)\\1', '[unclosed']) {
      let refused = '';
      try {
        compileRegex(pattern, 'match.descriptionRegex');
      } catch (err) {
        refused = ((err as ApiError).details as { issues: Array<{ message: string }> }).issues[0].message;
      }
      expect(refused).toMatch(/^Not a supported regular expression: /);
      expect(compileMatch({ descriptionRegex: pattern }).error).toBe(refused);
      expect(compileMatch({ descriptionRegex: pattern }).test(tx('fee', '1.00'))).toBe(false);
    }
  });
});
