import { setTimeout as sleep } from 'node:timers/promises';
import { isDatabaseUnavailable } from './availability';

const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5_000;

/**
 * Runs `fn` again and again while PostgreSQL is unreachable, and only then. An activity with a small
 * retry budget (model and tool calls: 3 attempts) would otherwise spend it on a database outage of a
 * few seconds and fail the run; waiting inside the attempt keeps the budget for the model's own
 * failures. Any other error is thrown at once. Stops when `signal` aborts (the run was cancelled, or
 * Temporal timed the attempt out), throwing the last database error.
 */
export async function untilDatabaseAnswers<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await fn();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || signal?.aborted) throw err;
      await sleep(pause, undefined, { signal }).catch(() => {
        throw err;
      });
    }
  }
}
