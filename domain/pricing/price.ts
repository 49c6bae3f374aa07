/**
 * Exact price arithmetic for price lists (docs/api/pricing.md). Amounts are integer micro-USD; token
 * prices are micro-USD per million tokens and a markup is parts per million of the service's cost, so
 * every intermediate is an integer in BigInt and the only rounding is the last one, half up, to the
 * micro-USD.
 */

const MILLION = 1_000_000n;

/** Per-run and per-million-token prices in micro-USD; `null` counts as 0. */
export interface UnitPrices {
  perRunMicros: number | null;
  inputPerMTokMicros: number | null;
  outputPerMTokMicros: number | null;
}

/** What is being priced: a number of runs and their tokens. */
export interface Quantity {
  runs: number;
  inputTokens: number;
  outputTokens: number;
}

const big = (n: number | null): bigint => BigInt(n ?? 0);

/** The price of `q` at `p`, in micro-USD × 10⁻⁶ (exact: the token prices are per million tokens). */
export function scaledAmount(p: UnitPrices, q: Quantity): bigint {
  return (
    big(p.perRunMicros) * BigInt(q.runs) * MILLION +
    BigInt(q.inputTokens) * big(p.inputPerMTokMicros) +
    BigInt(q.outputTokens) * big(p.outputPerMTokMicros)
  );
}

/** Divides non-negative integers, rounding half up. */
function roundDiv(a: bigint, b: bigint): bigint {
  return (a + b / 2n) / b;
}

/** `scaledAmount` rounded to whole micro-USD. */
export function toMicros(scaled: bigint): number {
  return Number(roundDiv(scaled, MILLION));
}

/**
 * What a rule asks for `q`: its own prices, plus, when it has a markup, the service's cost
 * (`costScaled`, micro-USD × 10⁻⁶) increased by that markup. Returns whole micro-USD.
 */
export function ruleMicros(rule: UnitPrices & { markupPpm: number | null }, q: Quantity, costScaled: bigint): number {
  const own = scaledAmount(rule, q) * MILLION;
  const marked = rule.markupPpm === null ? 0n : costScaled * (MILLION + BigInt(rule.markupPpm));
  return Number(roundDiv(own + marked, MILLION * MILLION));
}
