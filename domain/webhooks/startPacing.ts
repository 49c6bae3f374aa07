/*
 * A speed trick, kept in this one module: a fan-out's first attempts started a few at a time with hand-made
 * pauses between the groups, where a plain loop would start them all in one go. Node writes a request to its
 * socket from a process.nextTick callback (the agent's), which runs only once every promise job queued before
 * it has: a hundred attempts started in one go reach the wire together, after the last one is built, and
 * their receivers wait for all of them. Awaiting a tick every few lets those callbacks write the requests
 * built so far, and receivers start on them while the rest are built. A tick, not an event-loop turn: the
 * answers already in wait until every request is out. Except while new connections are being opened: a
 * request waiting for one is written only after the event loop has polled for its connect, so then a whole
 * turn, and the connections finish opening while the rest are built instead of all after the last one.
 *
 * What it buys, at 100 subscribers in case 5 (bench/README.md, "The fan-out's start" and "The cold fan-out"):
 * the first arrival about 10 ms and the last about 7 ms sooner at p50; on cold connections the level's first
 * fan-out's last arrival 61–78 ms instead of 79–98. test/webhooks/startPacing.test.ts holds it equal to the
 * plain loop: the same calls, in the same order.
 */

/** How many attempts are started between two pauses. */
export const START_BATCH = 8;

const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `start` for every item, in order, exactly as `for (const item of items) start(item)` would, pausing
 * after every {@link START_BATCH}: for a tick, or for a whole event-loop turn while `connecting()` says
 * connections are still being opened.
 */
export async function startPaced<T>(
  items: readonly T[],
  start: (item: T) => void,
  connecting: () => boolean,
): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % START_BATCH === 0) await (connecting() ? nextTurn() : nextTick());
    start(items[i]);
  }
}
