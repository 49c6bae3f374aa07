import type { Orm } from '../../db/orm';
import type { Topology } from '../../scripts/topology/apps';
import type { Received } from '../helpers/receiver';
import { sleep, type Checks } from './lib';
import type { DrillClient } from './topologyLoad';

/** Webhook delivery: one attempt per try, at most 3 tries (1 s, 2 s apart) per delivery (docs/api/webhooks.md). */
const MAX_ATTEMPTS = 3;

/**
 * Every run announced `run.needs_approval` and `run.succeeded` at least once; no event reached the receiver
 * more often than one delivery's attempts allow (at-least-once, not more), and the delivery log holds one
 * delivery per event (a run's `run.needs_approval` or `run.succeeded`: each happens once per run here).
 */
export async function checkWebhooks(
  client: DrillClient,
  subscriptionId: string,
  runIds: string[],
  received: Received[],
  checks: Checks,
): Promise<string> {
  const want = runIds.flatMap((id) => [`${id} run.needs_approval`, `${id} run.succeeded`]);
  const deadline = Date.now() + 60_000;
  let perEvent = new Map<string, number>();
  let missing: string[] = [];
  do {
    perEvent = new Map();
    const got = new Set<string>();
    for (const r of received) {
      const body = JSON.parse(r.raw.toString('utf8'));
      perEvent.set(body.id, (perEvent.get(body.id) ?? 0) + 1);
      got.add(`${body.run.id} ${body.type}`);
    }
    missing = want.filter((k) => !got.has(k));
    if (!missing.length) break;
    await sleep(500);
  } while (Date.now() < deadline);
  checks.ok(
    missing.length === 0,
    `${missing.length} expected events never delivered, e.g. ${missing.slice(0, 3).join(', ')}`,
  );
  const over = [...perEvent].filter(([, n]) => n > MAX_ATTEMPTS);
  checks.ok(
    over.length === 0,
    `${over.length} events delivered more than ${MAX_ATTEMPTS} times: ${JSON.stringify(over.slice(0, 3))}`,
  );
  const repeated = [...perEvent.values()].filter((n) => n > 1).length;

  const log: Array<{ runId: string; type: string }> = [];
  let cursor: string | null = null;
  do {
    const page: any = await client.expect(
      [200],
      'GET',
      `/v1/webhooks/${subscriptionId}/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    log.push(...page.deliveries);
    cursor = page.nextCursor;
  } while (cursor);
  const byEvent = new Map<string, number>();
  for (const d of log) byEvent.set(`${d.runId} ${d.type}`, (byEvent.get(`${d.runId} ${d.type}`) ?? 0) + 1);
  const doubled = [...byEvent].filter(([, n]) => n > 1);
  checks.ok(doubled.length === 0, `${doubled.length} events with more than one delivery in the log`);
  return `${want.length - missing.length}/${want.length} events delivered (${received.length} requests, ${repeated} events retried, ${doubled.length} doubled deliveries)`;
}

/**
 * One charge per run, none for a run whose start was given up, and the balance moved by exactly the runs'
 * ledger rows (hold, charge, release).
 */
export async function checkCharges(
  orm: Orm,
  workspaceId: string,
  runIds: string[],
  givenUp: string[],
  before: number,
  checks: Checks,
): Promise<string> {
  if (!runIds.length) return 'no runs to charge';
  const conn = orm.em.fork().getConnection();
  const charges: Array<{ run_id: string; n: number; total: string }> = await conn.execute(
    `select run_id, count(*) filter (where kind = 'charge')::int as n, sum(amount_micros)::bigint as total
     from ledger_entries where run_id in (?) group by run_id`,
    [[...runIds, ...givenUp]],
  );
  const unstarted = new Set(givenUp);
  const twice = charges.filter((c) => c.n > 1);
  // settling such a run writes a charge of 0 next to its hold and release: its rows sum to nothing
  const wrongly = charges.filter((c) => unstarted.has(c.run_id) && Number(c.total) !== 0);
  const uncharged = runIds.length - charges.filter((c) => !unstarted.has(c.run_id) && c.n === 1).length - twice.length;
  checks.ok(twice.length === 0, `${twice.length} runs charged more than once`);
  checks.ok(
    wrongly.length === 0,
    `${wrongly.length} runs whose start was given up cost something: ${JSON.stringify(wrongly.slice(0, 3))}`,
  );
  checks.ok(uncharged === 0, `${uncharged} succeeded runs without a charge`);
  const [{ balance: after }] = await conn.execute(
    'select credit_balance_micros::bigint as balance from workspaces where id = ?',
    [workspaceId],
  );
  const moved = charges.reduce((s, c) => s + Number(c.total), 0);
  checks.ok(
    Number(after) - before === moved,
    `balance moved by ${Number(after) - before} µUSD, the ledger rows sum to ${moved}`,
  );
  return `${twice.length} double charges`;
}

/**
 * The rate limits live in the shared store, not in one process: failed sign-ins of one client alternate
 * between the two APIs (each trusts one proxy hop, so the client is the `X-Forwarded-For` address), and the
 * limit (`SVC_SIGNIN_RATE_PER_MIN`, 10) is reached after 10 in all, not 10 per API.
 */
export async function checkSharedRateLimit(topology: Topology, checks: Checks): Promise<string> {
  let last = '';
  // The limit counts per minute window: a series that straddles a window's end starts counting afresh, so
  // such a series (its remaining count goes up) is tried once more with another client.
  for (let attempt = 0; attempt < 2; attempt++) {
    const { statuses, remaining } = await signInSeries(topology);
    last = `${statuses.join(',')} (remaining ${remaining.join(',')})`;
    const reset = remaining.some((r, n) => n > 0 && Number(r) > Number(remaining[n - 1]));
    if (reset && attempt === 0) continue;
    const limited = statuses.map((s, n) => (s === 429 ? n : -1)).filter((n) => n >= 0);
    checks.ok(
      limited.length === 2 && limited[0] === 10,
      `sign-ins alternating over both APIs: ${last}; want 429 from the 11th on`,
    );
    break;
  }
  return `shared sign-in limit: ${last}`;
}

async function signInSeries(topology: Topology): Promise<{ statuses: number[]; remaining: string[] }> {
  // a documentation address (RFC 5737) that only names the client here; nothing is sent to it
  const client = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
  const statuses: number[] = [];
  const remaining: string[] = [];
  for (let n = 0; n < 12; n++) {
    const res = await fetch(`${topology.apiUrl(n % 2)}/v1/console/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ email: `nobody-${n}@example.com`, password: 'wrong-password-0123' }),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
    remaining.push(res.headers.get('ratelimit-remaining') ?? '');
  }
  return { statuses, remaining };
}
