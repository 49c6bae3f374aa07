import type { CaseResult } from './context';
import type { OpenLoopResult, OpLog } from './openLoop';
import type { RssSample } from './rss';
import { fmt, percentile, table } from './stats';

/** What the soak case times: each arrival kind, and what follows from its runs. */
export type SoakOp = 'create' | 'run' | 'gate' | 'read' | 'webhook';

/** Verdict limits (bench/README.md, the soak case). */
const MAX_RSS_GROWTH = 0.1;
const MAX_P99_RATIO = 1.5;

const OP_LABELS: Record<SoakOp, string> = {
  create: '`POST /v1/runs` (echo), due → 201',
  run: 'echo run, due → `completedAt`',
  gate: '`POST …/input` → `running` on the event stream',
  read: '`GET /v1/runs/{id}`, due → 200',
  webhook: '`completedAt` → first attempt at the receiver',
};

export interface SoakInput {
  settings: {
    minutes: number;
    warmupSeconds: number;
    rate: number;
    rateSource: string;
    createRps?: number;
    mix: string;
  };
  loop: OpenLoopResult;
  logs: Record<SoakOp, OpLog>;
  rss: RssSample[];
  overdrawnKeyRequests: number;
  /** Gate runs whose event stream waited for a slot under the API's cap. */
  streamWaits: number;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const pct = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${fmt(100 * x, 1)} %` : '–');
const mark = (pass: boolean) => (pass ? 'pass' : '**fail**');

/**
 * The soak case's verdicts, from the first minute after the warm-up and the last minute of the load
 * (each half the measured time when that is shorter than two minutes): every operation's p99 in the
 * last minute within 1.5× of the first's, the median RSS of each process tree in the last minute
 * within +10 % of the first's, and no error at all.
 */
export function soakReport(input: SoakInput): CaseResult {
  const { settings, loop, logs } = input;
  const measuredFrom = loop.startedAt + settings.warmupSeconds * 1000;
  const windowMs = Math.min(60_000, (loop.endedAt - measuredFrom) / 2);
  const first = { from: measuredFrom, to: measuredFrom + windowMs };
  const last = { from: loop.endedAt - windowMs, to: loop.endedAt };

  const ops = (Object.keys(logs) as SoakOp[]).map((op) => {
    const log = logs[op];
    const a = log.window(first.from, first.to);
    const b = log.window(last.from, last.to);
    const p99Ratio = b.p99 / a.p99;
    return {
      op,
      total: log.samples.length,
      errors: log.errors,
      firstErrors: log.firstErrors.map((e) => ({
        atSecond: Math.round((e.at - loop.startedAt) / 1000),
        message: e.message,
      })),
      firstMinute: a,
      lastMinute: b,
      p99Ratio,
      pass: a.count > 0 && b.count > 0 && p99Ratio <= MAX_P99_RATIO,
    };
  });

  const processes = Object.keys(input.rss[0]?.mib ?? {}).map((name) => {
    const values = (w: { from: number; to: number }) =>
      input.rss.filter((s) => s.at >= w.from && s.at < w.to && s.mib[name] != null).map((s) => s.mib[name]!);
    const a = median(values(first));
    const b = median(values(last));
    const all = input.rss.map((s) => s.mib[name]).filter((v): v is number => v != null);
    const growth = b / a - 1;
    return {
      process: name,
      firstMinuteMiB: a,
      lastMinuteMiB: b,
      maxMiB: all.length ? Math.max(...all) : NaN,
      growth,
      pass: Number.isFinite(growth) && growth <= MAX_RSS_GROWTH,
    };
  });

  const errors = ops.reduce((n, o) => n + o.errors, 0);
  const verdicts = {
    rss: Object.fromEntries(processes.map((p) => [p.process, p.pass])),
    p99: Object.fromEntries(ops.map((o) => [o.op, o.pass])),
    noErrors: errors === 0,
    pass: errors === 0 && processes.length > 0 && processes.every((p) => p.pass) && ops.every((o) => o.pass),
  };

  const opRows = ops.map((o) => [
    OP_LABELS[o.op],
    o.firstMinute.count,
    o.firstMinute.p50,
    o.firstMinute.p99,
    o.lastMinute.count,
    o.lastMinute.p50,
    o.lastMinute.p99,
    Number.isFinite(o.p99Ratio) ? `${fmt(o.p99Ratio, 2)}×` : '–',
    o.errors,
    mark(o.pass && o.errors === 0),
  ]);
  const rssRows = processes.map((p) => [
    p.process,
    p.firstMinuteMiB,
    p.lastMinuteMiB,
    p.maxMiB,
    pct(p.growth),
    mark(p.pass),
  ]);
  const windowS = Math.round(windowMs / 1000);
  const errorLines = ops.flatMap((o) => o.firstErrors.map((e) => `- ${o.op} at ${e.atSecond} s: ${e.message}`));
  const markdown = [
    `### 10. Soak: ${settings.minutes} min of mixed open-loop load at ${fmt(settings.rate)} arrivals/s (${settings.mix})`,
    '',
    `Rate: ${settings.rateSource}${settings.createRps ? ` (create ${fmt(settings.createRps)} /s)` : ''}. ` +
      `Warm-up ${settings.warmupSeconds} s, then compared: the first ${windowS} s after it and the last ${windowS} s. ` +
      `Arrivals fired ${loop.fired}, at most ${loop.maxInFlight} in flight; the generator was at most ${fmt(loop.maxLagMs)} ms late. ` +
      `Gate runs whose event stream waited for a slot under the API's per-workspace cap: ${input.streamWaits}.`,
    '',
    table(
      [
        'operation',
        'first n',
        'p50 ms',
        'p99 ms',
        'last n',
        'p50 ms',
        'p99 ms',
        'p99 last/first',
        'errors',
        `verdict (≤${MAX_P99_RATIO}×, 0 errors)`,
      ],
      opRows,
    ),
    '',
    table(
      [
        'process tree',
        'RSS first (median MiB)',
        'RSS last (median MiB)',
        'max MiB',
        'growth',
        `verdict (≤${100 * MAX_RSS_GROWTH} %)`,
      ],
      rssRows,
    ),
    '',
    `**Verdict: ${verdicts.pass ? 'pass' : 'FAIL'}** (${errors} errors${input.overdrawnKeyRequests ? `, ${input.overdrawnKeyRequests} requests on spent keys` : ''}).`,
    ...(errorLines.length ? ['', 'First errors:', '', ...errorLines] : []),
  ].join('\n');

  return {
    title: 'soak',
    markdown,
    data: {
      settings,
      generator: { fired: loop.fired, maxLagMs: loop.maxLagMs, maxInFlight: loop.maxInFlight },
      windows: { warmupSeconds: settings.warmupSeconds, windowSeconds: windowMs / 1000 },
      operations: ops,
      rss: processes,
      rssSamples: input.rss.map((s) => ({ second: Math.round((s.at - loop.startedAt) / 100) / 10, mib: s.mib })),
      errors,
      verdicts,
      overdrawnKeyRequests: input.overdrawnKeyRequests,
      streamWaits: input.streamWaits,
    },
  };
}
