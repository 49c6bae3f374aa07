/**
 * SQL `LIKE` for sheets, which have no database to ask: `%` is any run of characters (none too), `_` is exactly
 * one character, everything else (a backslash too: sheets have no escape character) stands for itself, and the
 * whole cell must match (docs/api/data-sources.md). Characters are Unicode code points, as a database counts them.
 *
 * Matched by the classic two-pointer walk rather than a regular expression: on a mismatch it returns only to the
 * last `%` seen, so a pattern costs at most pattern × cell steps, where a backtracking `.*` per `%` costs
 * cell^(number of %) on a cell that almost matches (docs/architecture.md#regular-expressions).
 */
export function likeMatcher(pattern: string): (text: string) => boolean {
  const p = [...pattern];
  return (text) => {
    const t = [...text];
    let pi = 0;
    let ti = 0;
    let star = -1;
    let resume = 0;
    while (ti < t.length) {
      if (pi < p.length && p[pi] === '%') {
        star = pi++;
        resume = ti;
      } else if (pi < p.length && (p[pi] === '_' || p[pi] === t[ti])) {
        pi++;
        ti++;
      } else if (star >= 0) {
        pi = star + 1;
        ti = ++resume;
      } else {
        return false;
      }
    }
    while (pi < p.length && p[pi] === '%') pi++;
    return pi === p.length;
  };
}
