/** Latency summary of one measurement, in milliseconds; `rps` is completed operations per second. */
export interface Summary {
  count: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Summarises latencies (ms) observed over `seconds` of measurement. */
export function summarize(latencies: number[], seconds: number, errors = 0): Summary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    count: sorted.length,
    errors,
    rps: seconds > 0 ? sorted.length / seconds : NaN,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : NaN,
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}

/** service / baseline, for throughput and latency alike (> 1 latency means slower, < 1 throughput means fewer). */
export const ratio = (service: number, baseline: number) => (baseline > 0 ? service / baseline : NaN);

export function fmt(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return '–';
  if (Number.isInteger(n) || Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return n.toFixed(digits);
}

/** A Markdown table; numbers are formatted with `fmt`. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)));
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...cells.map(line)].join('\n');
}

/** The usual row of a service/baseline comparison. */
export function comparisonRows(service: Summary, baseline: Summary): Array<Array<string | number>> {
  return [
    ['service', service.rps, service.p50, service.p95, service.p99, service.count, service.errors],
    ['baseline', baseline.rps, baseline.p50, baseline.p95, baseline.p99, baseline.count, baseline.errors],
    [
      '**ratio** service/baseline',
      `${fmt(ratio(service.rps, baseline.rps), 2)}×`,
      `${fmt(ratio(service.p50, baseline.p50), 2)}×`,
      `${fmt(ratio(service.p95, baseline.p95), 2)}×`,
      `${fmt(ratio(service.p99, baseline.p99), 2)}×`,
      '',
      '',
    ],
  ];
}

export const COMPARISON_HEADERS = ['', 'throughput /s', 'p50 ms', 'p95 ms', 'p99 ms', 'n', 'errors'];
