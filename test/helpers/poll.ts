/**
 * The one way a test waits for something to happen: call `probe` until `done` holds of its answer (by default,
 * until the answer is truthy), every `everyMs` (20 ms), for at most `ms`; fail with `what` and the last answer
 * otherwise. A probe that costs the service something (opening a stream under a rate limit) asks less often.
 * It waits for what a user would see (a status, a request received, a row), never for a guessed time: sleeping
 * and asserting wall-clock spacing are refused outside test/helpers/ (test/architecture/noSleeps.test.ts).
 */
export async function pollUntil<T>(
  ms: number,
  probe: () => T | Promise<T>,
  done: (value: T) => boolean = (value) => Boolean(value),
  what = 'the condition',
  everyMs = 20,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`${what} did not hold within ${ms} ms; last seen: ${describe(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}
