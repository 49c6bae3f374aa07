/** Calls `probe` until `done` holds of its answer, for at most `ms`; fails with the last answer otherwise. */
export async function pollUntil<T>(ms: number, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${String(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
