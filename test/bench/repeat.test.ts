import { combineRuns, median, summarizeTargets, targetsTable, type RunOutput } from '../../bench/lib/repeat';
import { TARGETS } from '../../bench/lib/targets';

/**
 * `npm run bench -- --repeat N` judges each target on the median of its runs (bench/lib/repeat.ts). Fake
 * runs shaped as bench/main.ts writes them: the verdict must follow the median, not the best or the last run.
 */
function fakeRun(i: number, v: { create: number; e2e: number; p99At100: number; p99At1: number; turns?: number }) {
  const cases: Record<string, unknown> = {
    create: { ratio: { throughput: v.create, p50: 1.2 } },
    e2e: {
      levels: [
        { concurrency: 1, ratio: { throughput: 1, p50: v.e2e } },
        { concurrency: 8, ratio: { throughput: 1, p50: 9 } },
      ],
    },
    webhooks: {
      levels: [
        { subscribers: 0, firstAttempt: null },
        { subscribers: 1, firstAttempt: { p99: v.p99At1 }, baseline: { firstAttempt: { p99: 10 } } },
        { subscribers: 100, firstAttempt: { p99: v.p99At100 }, baseline: { firstAttempt: { p99: 25 } } },
      ],
    },
    read: {
      get: { service: { rps: 10000 + i }, ratio: { throughput: 0.3 } },
      list: [
        { size: 1000, first: { p50: 10 }, middle: { p50: 10 } },
        { size: 100000, first: { p50: 11 }, middle: { p50: 13 } },
      ],
    },
  };
  if (v.turns !== undefined) cases.turns = { perTurnRatio: v.turns };
  return { date: `2026-12-07T0${i}:00:00.000Z`, durationSeconds: 500, machine: {}, settings: {}, cases } as RunOutput;
}

const five = [
  fakeRun(1, { create: 0.9, e2e: 1.0, p99At100: 30, p99At1: 10, turns: 1.0 }), // fan-out 3×
  fakeRun(2, { create: 0.8, e2e: 1.4, p99At100: 20, p99At1: 20, turns: 1.1 }), // fan-out 1×
  fakeRun(3, { create: 0.84, e2e: 1.2, p99At100: 38, p99At1: 20 }), // fan-out 1.9×, no turns case
  fakeRun(4, { create: 0.95, e2e: 1.35, p99At100: 50, p99At1: 20, turns: 1.5 }), // fan-out 2.5×
  fakeRun(5, { create: 0.83, e2e: 1.1, p99At100: 21, p99At1: 10, turns: 0.9 }), // fan-out 2.1×
];

const byId = (id: string) => summarizeTargets(five).find((s) => s.id === id)!;

describe('bench --repeat: targets judged on the median of the runs', () => {
  it('takes the middle value, of an even count the mean of the middle two', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });

  it('misses a minimum when the median is under it, though two runs held', () => {
    const create = byId('create');
    expect(create.values).toEqual([0.9, 0.8, 0.84, 0.95, 0.83]);
    expect(create).toMatchObject({ median: 0.84, min: 0.8, max: 0.95, held: false, bound: 'min', limit: 0.85 });
  });

  it('holds a maximum when the median is within it, though two runs were over', () => {
    expect(byId('e2e')).toMatchObject({ median: 1.2, min: 1.0, max: 1.4, held: true });
  });

  it('computes a ratio per run before the median (not a ratio of medians)', () => {
    const fanOut = byId('fan-out');
    expect(fanOut.values).toEqual([3, 1, 1.9, 2.5, 2.1]);
    expect(fanOut).toMatchObject({ median: 2.1, held: false });
    // the medians of the two p99s (30 and 20) would give 1.5× and a wrong verdict
    expect(byId('fan-out-baseline')).toMatchObject({ median: 2.5, held: null, bound: null });
  });

  it('takes the worse list page in each run', () => {
    expect(byId('list').values).toEqual([1.3, 1.3, 1.3, 1.3, 1.3]);
    expect(byId('list').held).toBe(false);
  });

  it('judges a case missing from some runs on the runs that measured it, and says when none did', () => {
    expect(byId('turns')).toMatchObject({ values: [1.0, 1.1, null, 1.5, 0.9], median: 1.05, held: true });
    expect(byId('gate')).toMatchObject({ values: [null, null, null, null, null], median: null, held: null });
  });

  it('writes the verdicts and every run whole, and prints median, spread, verdict and each run', () => {
    const combined = combineRuns(five);
    expect(combined).toMatchObject({ repeat: 5, judgedOn: 'median of 5 runs', date: five[0].date });
    expect(combined.runs).toHaveLength(5);
    expect(combined.targets.map((t) => t.id)).toEqual(TARGETS.map((t) => t.id));
    const table = targetsTable(combined.targets);
    const createRow = table.split('\n').find((l) => l.includes('1. create'))!;
    expect(createRow).toBe(
      '| 1. create, throughput ÷ bare `workflow.start` | ≥ 0.85× | 0.840× | 0.800× – 0.950× | **missed** | 0.900× | 0.800× | 0.840× | 0.950× | 0.830× |',
    );
    expect(table).toContain('| 3. human gate, p50 ÷ Temporal Update | ≤ 1.2× | – | – | no value |');
    expect(table.split('\n')[0]).toContain('median of 5');
  });
});
