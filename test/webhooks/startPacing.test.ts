import { START_BATCH, startPaced } from '../../domain/webhooks/startPacing';

/**
 * The fan-out starts its first attempts a few at a time (domain/webhooks/startPacing.ts): it must start exactly
 * what the plain loop starts, in the same order, and pause between groups for a tick, or for a whole
 * event-loop turn while connections are opening.
 */
describe('first attempts started a few at a time', () => {
  const plain = <T>(items: readonly T[]) => {
    const started: T[] = [];
    for (const item of items) started.push(item);
    return started;
  };

  it('starts every item once, in the plain loop’s order, whatever the count', async () => {
    for (const count of [0, 1, START_BATCH - 1, START_BATCH, START_BATCH + 1, 100, 257]) {
      const items = Array.from({ length: count }, (_, i) => `delivery-${i}`);
      for (const connecting of [false, true]) {
        const started: string[] = [];
        await startPaced(
          items,
          (item) => started.push(item),
          () => connecting,
        );
        expect(started).toEqual(plain(items));
      }
    }
  });

  it('starts the first group at once and the rest only after a pause', async () => {
    const started: number[] = [];
    const done = startPaced(
      Array.from({ length: 3 * START_BATCH }, (_, i) => i),
      (i) => started.push(i),
      () => false,
    );
    expect(started).toHaveLength(START_BATCH);
    await done;
    expect(started).toHaveLength(3 * START_BATCH);
  });

  it('pauses for a tick on open connections and for an event-loop turn while connections are opening', async () => {
    const order = async (connecting: boolean) => {
      const seen: string[] = [];
      setImmediate(() => seen.push('turn'));
      await startPaced(
        Array.from({ length: START_BATCH + 1 }, (_, i) => i),
        (i) => {
          if (i === START_BATCH) seen.push('second group');
        },
        () => connecting,
      );
      await new Promise((resolve) => setImmediate(resolve));
      return seen;
    };
    expect(await order(false)).toEqual(['second group', 'turn']);
    expect(await order(true)).toEqual(['turn', 'second group']);
  });
});
