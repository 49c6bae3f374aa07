import { TARGETS, type RunCases, type Target } from './targets';

/**
 * Several runs of the benchmark judged together: each target on the median of its runs, with the spread
 * (min–max) beside it. One run on a shared two-core machine swings by more than a target's margin (case 1's
 * ratio moved 0.79–0.90× over 33 runs of unchanged code), so a verdict of one run says little and a streak
 * of verdicts is luck; the median of five is the number that moves only when the code does.
 */

/** What bench/main.ts writes for one run. */
export interface RunOutput {
  date: string;
  durationSeconds: number;
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  cases: RunCases;
}

export interface TargetSummary {
  id: string;
  label: string;
  bound: 'min' | 'max' | null;
  limit: number | null;
  unit: Target['unit'];
  /** One per run, in run order; null where the run did not measure it. */
  values: Array<number | null>;
  median: number | null;
  min: number | null;
  max: number | null;
  /** The median judged against the bound; null without a bound or without a value. */
  held: boolean | null;
}

/** The median; of an even count, the mean of the middle two. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarizeTargets(runs: readonly RunOutput[], targets: readonly Target[] = TARGETS): TargetSummary[] {
  return targets.map((target) => {
    const values = runs.map((run) => target.value(run.cases) ?? null);
    const present = values.filter((v): v is number => v !== null);
    const mid = present.length > 0 ? median(present) : null;
    const judged = target.bound !== undefined && target.limit !== undefined && mid !== null;
    return {
      id: target.id,
      label: target.label,
      bound: target.bound ?? null,
      limit: target.limit ?? null,
      unit: target.unit,
      values,
      median: mid,
      min: present.length > 0 ? Math.min(...present) : null,
      max: present.length > 0 ? Math.max(...present) : null,
      held: judged ? (target.bound === 'min' ? mid >= target.limit! : mid <= target.limit!) : null,
    };
  });
}

/** What `latest.json` holds after `npm run bench -- --repeat N`: the verdicts, then every run whole. */
export function combineRuns(runs: readonly RunOutput[], targets: readonly Target[] = TARGETS) {
  if (runs.length === 0) throw new Error('no runs to combine');
  return {
    date: runs[0].date,
    repeat: runs.length,
    judgedOn: runs.length > 1 ? `median of ${runs.length} runs` : 'one run',
    machine: runs[0].machine,
    settings: runs[0].settings,
    targets: summarizeTargets(runs, targets),
    runs,
  };
}

function show(value: number | null, unit: Target['unit']): string {
  if (value === null) return '–';
  if (unit === '×') return `${value.toFixed(value < 1 ? 3 : 2)}×`;
  if (unit === '/s') return `${Math.round(value).toLocaleString('en-US')} /s`;
  return `${value.toFixed(1)} ms`;
}

function boundText(s: TargetSummary): string {
  if (s.bound === null || s.limit === null) return '–';
  const limit = s.unit === '/s' ? Math.round(s.limit).toLocaleString('en-US') : String(s.limit);
  return `${s.bound === 'min' ? '≥' : '≤'} ${limit}${s.unit === '/s' ? ' /s' : s.unit === 'ms' ? ' ms' : '×'}`;
}

/** The verdict table, Markdown: per target its bound, median, spread and verdict, then each run's value. */
export function targetsTable(summaries: readonly TargetSummary[]): string {
  const runs = summaries[0]?.values.length ?? 0;
  const head = [
    'target',
    'bound',
    `median of ${runs}`,
    'min–max',
    'verdict',
    ...summaries[0].values.map((_, i) => `run ${i + 1}`),
  ];
  const rows = summaries.map((s) => [
    s.label,
    boundText(s),
    show(s.median, s.unit),
    s.min === null ? '–' : `${show(s.min, s.unit)} – ${show(s.max, s.unit)}`,
    s.held === null ? (s.median === null ? 'no value' : '–') : s.held ? 'held' : '**missed**',
    ...s.values.map((v) => show(v, s.unit)),
  ]);
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
