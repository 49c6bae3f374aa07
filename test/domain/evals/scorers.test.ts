import { canonical, jsonSubset, scoreOutput, type Judge } from '../../../domain/evals/scorers';

// The scorers of docs/api/evals.md, on plain values.
describe('eval scorers', () => {
  const noJudge: Judge = () => Promise.reject(new Error('not asked'));
  const score = async (scorer: 'exact' | 'contains' | 'json_subset', output: unknown, expected: unknown) =>
    (await scoreOutput(scorer, output, expected, noJudge)).score;

  it('exact compares JSON with object keys in any order', async () => {
    expect(canonical({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(await score('exact', { a: 1, b: 2 }, { b: 2, a: 1 })).toBe(1);
    expect(await score('exact', [1, 2], [2, 1])).toBe(0);
    expect(await score('exact', '1', 1)).toBe(0);
    expect(await score('exact', null, null)).toBe(1);
  });

  it('contains looks for the expected text in the output text, JSON for anything not a string', async () => {
    expect(await score('contains', 'Hello world', 'world')).toBe(1);
    expect(await score('contains', 'Hello world', 'World')).toBe(0);
    expect(await score('contains', { answer: 'Paris, France' }, 'Paris')).toBe(1);
    expect(await score('contains', { n: 42 }, 42)).toBe(1);
    expect(await score('contains', { n: 41 }, { n: 42 })).toBe(0);
  });

  it('json_subset wants every expected key, recursively; arrays position by position', async () => {
    expect(jsonSubset({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true);
    expect(jsonSubset({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(jsonSubset({ a: null }, {})).toBe(false);
    expect(jsonSubset({ a: null }, { a: null })).toBe(true);
    expect(jsonSubset([{ id: 1 }], [{ id: 1, x: true }])).toBe(true);
    expect(jsonSubset([{ id: 1 }], [{ id: 1 }, { id: 2 }])).toBe(false);
    expect(jsonSubset({ a: 1 }, [1])).toBe(false);
    expect(await score('json_subset', { ok: true, extra: 1 }, { ok: true })).toBe(1);
  });

  it('judge is the judge function', async () => {
    const judge: Judge = async (output, expected) => ({
      score: 0.25,
      detail: `${canonical(output)} vs ${canonical(expected)}`,
    });
    expect(await scoreOutput('judge', { a: 1 }, 'x', judge)).toEqual({ score: 0.25, detail: '{"a":1} vs "x"' });
  });
});
