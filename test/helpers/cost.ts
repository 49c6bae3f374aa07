/**
 * The cost of some work measured against a baseline in the same run, never against a fixed number of
 * milliseconds: on a busy two-core machine the same call can take a hundred times longer than on a quiet one,
 * so an absolute bound measures the machine (the one way tests time work; test/architecture/noSleeps.test.ts).
 *
 * Each sample times the work and its baseline back to back, each repeated until it lasts at least
 * `MIN_SAMPLE_MS` (a timer's resolution and one stray collection would dominate a shorter one); the answer is the
 * ratio of the best times per call, so a pause that hits one sample does not count.
 */
const SAMPLES = 5;
const MIN_SAMPLE_MS = 5;

/** The time of one call of `work`, over enough calls to last `MIN_SAMPLE_MS`. */
async function perCall(work: () => unknown, repeat: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < repeat; i++) await work();
  return (performance.now() - started) / repeat;
}

/** How many calls of `work` last `MIN_SAMPLE_MS`, after one call to compile and warm it. */
async function repeatFor(work: () => unknown): Promise<number> {
  const once = Math.max(await perCall(work, 1), 0.001);
  return Math.min(1_000, Math.ceil(MIN_SAMPLE_MS / once));
}

/** How many times `work` costs as much as `baseline` (the best of five interleaved samples of each). */
export async function costRatio(work: () => unknown, baseline: () => unknown): Promise<number> {
  const repeat = { work: await repeatFor(work), baseline: await repeatFor(baseline) };
  let best = { work: Infinity, baseline: Infinity };
  for (let sample = 0; sample < SAMPLES; sample++) {
    best = {
      baseline: Math.min(best.baseline, await perCall(baseline, repeat.baseline)),
      work: Math.min(best.work, await perCall(work, repeat.work)),
    };
  }
  return best.work / Math.max(best.baseline, 0.001);
}

/** The input grows this many times between the two sizes `growth` compares. */
export const GROWTH_FACTOR = 8;

/**
 * How many times the cost of `work(size)` grows when its input grows eight-fold: about 8 for linear work (less
 * where a fixed part dominates), 64 for quadratic, astronomically more for exponential backtracking. Tests hold
 * it under `LINEAR_BOUND`, which leaves room for noise and cache effects and none for a square.
 */
export function growth(work: (size: number) => unknown, size: number): Promise<number> {
  const small = Math.max(1, Math.round(size / GROWTH_FACTOR));
  return costRatio(
    () => work(size),
    () => work(small),
  );
}

/** The most `growth` may answer for work called linear: three times the factor, a third of a square's 64. */
export const LINEAR_BOUND = 3 * GROWTH_FACTOR;
