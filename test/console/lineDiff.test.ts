/**
 * The line diff the console shows for an improvement proposal (console/src/areas/evals/lineDiff.ts): every line
 * of both texts once, in order, the unchanged ones found by longest common subsequence, long unchanged runs
 * folded around the changes.
 */
import { lineDiff, withContext, type DiffLine } from '../../console/src/areas/evals/lineDiff';

const render = (lines: DiffLine[]) =>
  lines.map((l) => `${l.kind === 'added' ? '+' : l.kind === 'removed' ? '-' : ' '}${l.text}`);

describe('lineDiff', () => {
  it('marks nothing when the texts are equal', () => {
    expect(render(lineDiff('a\nb', 'a\nb'))).toEqual([' a', ' b']);
  });

  it('keeps the longest common subsequence and puts a removal before the addition that replaces it', () => {
    expect(render(lineDiff('a\nb\nc\nd', 'a\nx\nc\nd\ne'))).toEqual([' a', '-b', '+x', ' c', ' d', '+e']);
  });

  it('finds lines kept in the middle of changes on both sides', () => {
    expect(render(lineDiff('1\nkeep\n2\nkeep too', 'keep\n3\nkeep too\n4'))).toEqual([
      '-1',
      ' keep',
      '-2',
      '+3',
      ' keep too',
      '+4',
    ]);
  });

  it('diffs an empty text against one with lines', () => {
    expect(render(lineDiff('', 'a\nb'))).toEqual(['-', '+a', '+b']);
  });

  it('reads back both texts from the diff', () => {
    const before = 'x\ny\nz\ny\nx';
    const after = 'y\nx\nz\nx\ny\nw';
    const diff = lineDiff(before, after);
    expect(
      diff
        .filter((l) => l.kind !== 'added')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(before);
    expect(
      diff
        .filter((l) => l.kind !== 'removed')
        .map((l) => l.text)
        .join('\n'),
    ).toBe(after);
    // the longest subsequence the two share is three lines long (x z x, y z x, …)
    expect(diff.filter((l) => l.kind === 'same')).toHaveLength(3);
  });

  it('folds unchanged runs beyond the context around a change', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const shown = withContext(lineDiff(before, after), 2);
    expect(shown).toEqual([
      { kind: 'skipped', count: 8 },
      { kind: 'same', text: 'line 8' },
      { kind: 'same', text: 'line 9' },
      { kind: 'removed', text: 'line 10' },
      { kind: 'added', text: 'line ten' },
      { kind: 'same', text: 'line 11' },
      { kind: 'same', text: 'line 12' },
      { kind: 'skipped', count: 7 },
    ]);
  });
});
