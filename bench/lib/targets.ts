/**
 * The benchmark's targets: for each, where its number sits in one run's `cases` (bench/main.ts writes them)
 * and the bound it is judged against. A target whose case did not run has no value in that run.
 */

/** One run's cases as bench/main.ts records them, keyed by case title. */
export type RunCases = Record<string, any>;

export interface Target {
  id: string;
  /** The case's number and what is compared, as the README's table names it. */
  label: string;
  /** `min`: the value must be at least `limit`; `max`: at most. No limit: reported, never judged. */
  bound?: 'min' | 'max';
  limit?: number;
  unit: '×' | '/s' | 'ms';
  value(cases: RunCases): number | undefined;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const level = (levels: unknown, key: string, at: number): any =>
  Array.isArray(levels) ? levels.find((l) => l?.[key] === at) : undefined;

/** First-attempt p99 at 100 subscribers ÷ at 1, for the service or (`baseline`) the necessary-work fan-out. */
function fanOutRatio(cases: RunCases, baseline: boolean): number | undefined {
  const pick = (l: any) => num((baseline ? l?.baseline : l)?.firstAttempt?.p99);
  const at100 = pick(level(cases.webhooks?.levels, 'subscribers', 100));
  const at1 = pick(level(cases.webhooks?.levels, 'subscribers', 1));
  return at100 !== undefined && at1 ? at100 / at1 : undefined;
}

/** The list page at 100k runs ÷ the same page at 1k (p50), the worse of the first page and the middle one. */
function listGrowth(cases: RunCases): number | undefined {
  const small = level(cases.read?.list, 'size', 1000);
  const large = level(cases.read?.list, 'size', 100000);
  const ratios = (['first', 'middle'] as const).map((page) => {
    const a = num(large?.[page]?.p50);
    const b = num(small?.[page]?.p50);
    return a !== undefined && b ? a / b : undefined;
  });
  return ratios.includes(undefined) ? undefined : Math.max(...(ratios as number[]));
}

/** The slowest query's one-client p50. */
function knowledgeP50(cases: RunCases): number | undefined {
  const queries = cases.knowledge?.queries;
  if (!Array.isArray(queries) || queries.length === 0) return undefined;
  const p50s = queries.map((q: any) => num(q?.alone?.p50));
  return p50s.includes(undefined) ? undefined : Math.max(...(p50s as number[]));
}

export const TARGETS: Target[] = [
  {
    id: 'create',
    label: '1. create, throughput ÷ bare `workflow.start`',
    bound: 'min',
    limit: 0.85,
    unit: '×',
    value: (c) => num(c.create?.ratio?.throughput),
  },
  {
    id: 'e2e',
    label: '2. echo run, 1 client, p50 ÷ bare workflow',
    bound: 'max',
    limit: 1.3,
    unit: '×',
    value: (c) => num(level(c.e2e?.levels, 'concurrency', 1)?.ratio?.p50),
  },
  {
    id: 'gate',
    label: '3. human gate, p50 ÷ Temporal Update',
    bound: 'max',
    limit: 1.2,
    unit: '×',
    value: (c) => num(c.gate?.ratio?.p50),
  },
  {
    id: 'get-ratio',
    label: '4. `GET /v1/runs/{id}`, throughput ÷ bare Koa',
    bound: 'min',
    limit: 0.15,
    unit: '×',
    value: (c) => num(c.read?.get?.ratio?.throughput),
  },
  {
    id: 'get-rate',
    label: '4. `GET /v1/runs/{id}`, throughput',
    bound: 'min',
    limit: 2332,
    unit: '/s',
    value: (c) => num(c.read?.get?.service?.rps),
  },
  {
    id: 'list',
    label: '4. list page at 100k ÷ at 1k runs, p50, the worse page',
    bound: 'max',
    limit: 1.2,
    unit: '×',
    value: listGrowth,
  },
  {
    id: 'fan-out',
    label: '5. fan-out, first attempt p99, 100 ÷ 1 subscriber',
    bound: 'max',
    limit: 2,
    unit: '×',
    value: (c) => fanOutRatio(c, false),
  },
  {
    id: 'fan-out-baseline',
    label: '5. the same for the fan-out baseline (the necessary work)',
    unit: '×',
    value: (c) => fanOutRatio(c, true),
  },
  {
    id: 'knowledge',
    label: '6. knowledge search, 1 client, p50 of the slowest query',
    bound: 'max',
    limit: 50,
    unit: 'ms',
    value: knowledgeP50,
  },
  {
    id: 'turns',
    label: '8. per-turn time, 100 turns ÷ 10 turns',
    bound: 'max',
    limit: 1.2,
    unit: '×',
    value: (c) => num(c.turns?.perTurnRatio),
  },
];
