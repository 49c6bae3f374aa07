import type { Scorer } from '../../db/entities/Eval';

/** A case's score: 0..1, passed when it is at least PASS_SCORE. */
export interface CaseScore {
  score: number;
  detail: string;
}

export const PASS_SCORE = 0.5;

/** A judge asks a model to score an output against the expected one, 0..1 (domain/evals/judge.ts). */
export type Judge = (output: unknown, expected: unknown) => Promise<CaseScore>;

/** JSON with object keys sorted, so two equal values always print alike. */
export function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A string as it is, anything else as its JSON. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : canonical(value));

/**
 * Whether `expected` is a subset of `actual`: every key of an expected object is in the actual object
 * with a matching value (recursively), an expected array matches an actual array of the same length
 * position by position, anything else must be equal.
 */
export function jsonSubset(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => jsonSubset(e, actual[i]))
    );
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const object = actual as Record<string, unknown>;
    return Object.entries(expected).every(([k, v]) => k in object && jsonSubset(v, object[k]));
  }
  return canonical(expected) === canonical(actual);
}

/**
 * Scores a succeeded run's output with the case's scorer (docs/api/evals.md): `exact` equal JSON (object
 * key order aside), `contains` the expected text inside the output's text (strings as they are,
 * anything else as JSON), `json_subset` as {@link jsonSubset}, `judge` by `judge`.
 */
export async function scoreOutput(
  scorer: Scorer,
  output: unknown,
  expected: unknown,
  judge: Judge,
): Promise<CaseScore> {
  switch (scorer) {
    case 'exact':
      return canonical(output) === canonical(expected)
        ? { score: 1, detail: 'The output equals the expected one' }
        : { score: 0, detail: 'The output differs from the expected one' };
    case 'contains':
      return asText(output).includes(asText(expected))
        ? { score: 1, detail: 'The output contains the expected text' }
        : { score: 0, detail: 'The output does not contain the expected text' };
    case 'json_subset':
      return jsonSubset(expected, output)
        ? { score: 1, detail: 'The output holds the expected fields' }
        : { score: 0, detail: 'The output lacks or differs in an expected field' };
    case 'judge':
      return judge(output, expected);
  }
}
