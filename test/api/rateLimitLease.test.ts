import { randomUUID } from 'node:crypto';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, freshRateWindow, setPlan, signUp } from '../helpers/factories';
import { leaseSize } from '../../api/keyRateLimit';

// api/keyRateLimit.ts: a replica busy with a key leases its tokens in larger steps, so the shared counter
// takes fewer writes per request, and two replicas together still admit the limit and no more.
describe('adaptive rate-limit leases', () => {
  it('sizes a lease by the recent demand, capped by 64 and a quarter of what is left', () => {
    expect(leaseSize(1200)).toBe(8);
    expect(leaseSize(1200, 3)).toBe(8);
    expect(leaseSize(1200, 40)).toBe(40);
    expect(leaseSize(1200, 1000)).toBe(64);
    expect(leaseSize(100, 1000)).toBe(25);
    expect(leaseSize(30, 1000)).toBe(7);
    expect(leaseSize(3, 1000)).toBe(1);
  });

  it('a busy key takes fewer upserts per request, and two replicas never admit more than the limit', async () => {
    const a = await startApi();
    const b = await startApi();
    const upserts = { n: 0 };
    const count = (q: { sql: string }) => {
      if (q.sql.includes('insert into rate_limit_buckets')) upserts.n++;
    };
    try {
      const owner = await signUp(a);
      await setPlan(a, owner.workspaceId, 'scale'); // 1200 requests a minute
      const key = bearer(await createKey(a, owner, ['runs:read']));
      for (const h of [a, b]) h.orm.em.getConnection().getKnex().on('query', count);
      await freshRateWindow(30);
      const statuses: number[] = [];
      // ten callers on each replica, one after another each, until 1500 requests (more than the limit)
      let sent = 0;
      const caller = async (h: Harness) => {
        while (sent < 1500) {
          sent++;
          const res = await h.request(`/v1/runs/${randomUUID()}`, { headers: key });
          statuses.push(res.status);
          await res.arrayBuffer();
        }
      };
      await Promise.all(Array.from({ length: 20 }, (_, i) => caller(i % 2 ? b : a)));
      const admitted = statuses.filter((s) => s === 404).length;
      expect(statuses.filter((s) => s !== 404 && s !== 429)).toEqual([]);
      expect(admitted).toBeLessThanOrEqual(1200);
      // tokens a replica still holds when the other is refused are not spent in this burst
      expect(admitted).toBeGreaterThan(1200 - 2 * 64);
      // leases of a fixed 8 would take an upsert per 8 requests at least (150 for 1200, and more for the
      // refused ones); adaptive ones take fewer. How many fewer follows the demand each replica sees in its
      // last 125–250 ms, so the machine's speed: 82 upserts for about 1,200 requests on one slow host, 125
      // on a slower one.
      expect(upserts.n).toBeLessThan(admitted / 8);
    } finally {
      for (const h of [a, b]) h.orm.em.getConnection().getKnex().off('query', count);
      await Promise.all([a.close(), b.close()]);
    }
  }, 120_000);
});
