import { RE2JS } from 're2js';
import { likeMatcher } from '../../domain/dataSources/drivers/likePattern';
import { growth, LINEAR_BOUND } from '../helpers/cost';

// `like` on sheets (docs/api/data-sources.md): SQL LIKE semantics without a database, in time bounded by
// pattern × cell whatever the pattern.
describe('like on sheets', () => {
  // LIKE as a regular expression, run on RE2 (linear whatever the pattern) as the reference to compare with
  const byRegex = (pattern: string, text: string) =>
    RE2JS.compile(
      [...pattern].map((ch) => (ch === '%' ? '.*' : ch === '_' ? '.' : RE2JS.quote(ch))).join(''),
      RE2JS.DOTALL,
    ).matches(text);

  it('matches % as any run, _ as one character, and the rest literally', () => {
    const cases: Array<[string, string, boolean]> = [
      ['New%', 'New York', true],
      ['New%', 'new York', false],
      ['%York', 'New York', true],
      ['%ew Y%', 'New York', true],
      ['N_w York', 'New York', true],
      ['N_w', 'New York', false],
      ['%', '', true],
      ['_', '', false],
      ['', '', true],
      ['a.c', 'abc', false],
      ['a\\%', 'a\\bc', true],
      ['50\\%', '50%', false],
      ['(a+)+$', '(a+)+$', true],
      ['_', '😀', true],
      ['%😀_', 'x😀y', true],
      ['a%b', 'a\nb', true],
    ];
    expect(cases.map(([p, t]) => [p, t, likeMatcher(p)(t)])).toEqual(cases);
  });

  it('agrees with the regular-expression reading of LIKE on random patterns and cells', () => {
    const alphabet = ['a', 'b', '%', '_', '\\', '.', '😀', '\n'];
    let seed = 11;
    const pick = () => alphabet[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % alphabet.length];
    const differing: Array<[string, string]> = [];
    for (let n = 0; n < 5_000; n++) {
      const pattern = Array.from({ length: n % 7 }, pick).join('');
      const text = Array.from({ length: (n >> 3) % 9 }, pick).join('');
      if (likeMatcher(pattern)(text) !== byRegex(pattern, text)) differing.push([pattern, text]);
    }
    expect(differing).toEqual([]);
  });

  it('answers a pattern built to backtrack over 100 KB of cells in time linear in the cells', async () => {
    const hostile = likeMatcher('%a'.repeat(8) + '%b');
    const cells = (n: number) => Array.from({ length: n }, () => 'a'.repeat(40));
    expect(cells(2_500).filter(hostile)).toEqual([]);
    expect(await growth((n) => cells(n).filter(hostile), 2_500)).toBeLessThan(LINEAR_BOUND);
    const long = (n: number) => likeMatcher('%a'.repeat(8) + '%b')('a'.repeat(n));
    expect(await growth(long, 100_000)).toBeLessThan(LINEAR_BOUND);
  });
});
