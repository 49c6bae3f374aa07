import { costRatio, growth, LINEAR_BOUND } from '../helpers/cost';

// The measure the linear-time and zip-bomb tests rely on (test/helpers/cost.ts) tells linear work from a
// square, and a cheap call from a dear one, by ratios in the same run.
describe('the cost measure', () => {
  /** Counts pairs of equal characters: quadratic in the length, the shape of a backtracking scan. */
  const pairs = (n: number) => {
    const text = 'a'.repeat(n);
    let equal = 0;
    for (let i = 0; i < text.length; i++) for (let j = i + 1; j < text.length; j++) if (text[i] === text[j]) equal++;
    return equal;
  };
  /** Counts the characters once: linear. */
  const count = (n: number) => {
    const text = 'a'.repeat(n);
    let seen = 0;
    for (let i = 0; i < text.length; i++) if (text[i] === 'a') seen++;
    return seen;
  };

  it('holds linear work under the bound and a square over it', async () => {
    expect(await growth(count, 400_000)).toBeLessThan(LINEAR_BOUND);
    expect(await growth(pairs, 6_000)).toBeGreaterThan(LINEAR_BOUND);
  });

  it('answers how many times dearer the work is than its baseline', async () => {
    expect(
      await costRatio(
        () => count(1_000),
        () => count(1_000),
      ),
    ).toBeLessThan(3);
    expect(
      await costRatio(
        () => count(1_000_000),
        () => count(1_000),
      ),
    ).toBeGreaterThan(30);
  });
});
