import { createHash } from 'node:crypto';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadConfig } from '../../platform/config';
import { initOrm, type Orm } from '../../db/orm';
import { Topology, topologyPorts } from '../../scripts/topology/apps';
import { startDnsServer } from '../helpers/dnsServer';
import { ALL_SCOPES, createKey, createWorkspace } from '../helpers/live/accounts';
import { startReceiver } from '../helpers/receiver';
import { ROOT } from '../helpers/live/processes';
import { Checks, sleep } from './lib';
import { bankExport, DrillClient, receipt, type Receipt } from './topologyLoad';
import { checkSharedRateLimit, checkWebhooks, checkCharges } from './topologyChecks';

/**
 * `npm run drill -- topology` (test/drills/run.sh → scripts/topology.sh --fresh --run …): the production
 * shape (two APIs, two workers, one entry point, Temporal on PostgreSQL, S3 storage) under steady load of
 * gated runs, webhooks and file uploads, while one API and one worker are killed -9, the Temporal frontend
 * restarts, and one API's PostgreSQL connection pool is cut. Then: no run lost or stuck, no delivery beyond
 * at-least-once, no double charge, every file readable through either API and by the workers, and the
 * rate limits still shared by both APIs. Prints `VERDICT topology: PASS|FAIL (…)`.
 */

const run = promisify(execFile);
const LOAD_SECONDS = 40;
const LANES = 4;
const MAX_RECEIPTS = 40;

async function temporalPg(command: 'start' | 'stop-frontend'): Promise<void> {
  await run('bash', [path.join(ROOT, 'scripts/temporal-pg.sh'), command], { cwd: ROOT, timeout: 180_000 });
}

/** Cuts every PostgreSQL session of one application name (one process's pool and its LISTEN connection). */
async function cutPool(orm: Orm, applicationName: string): Promise<number> {
  const rows: Array<{ cut: boolean }> = await orm.em
    .fork()
    .getConnection()
    .execute('select pg_terminate_backend(pid) as cut from pg_stat_activity where application_name = ?', [
      applicationName,
    ]);
  return rows.filter((r) => r.cut).length;
}

async function drill(topology: Topology, orm: Orm, checks: Checks): Promise<string> {
  const entry = topology.entry!.url;
  const ws = await createWorkspace(entry, orm, 1000);
  const scopes = [...ALL_SCOPES, 'files:read', 'files:write', 'finance:read', 'finance:write'];
  const keys = await Promise.all(Array.from({ length: 6 }, () => createKey(orm, ws.id, scopes)));
  const client = new DrillClient(entry, keys);
  const hooks = await startReceiver();
  try {
    const subscription = await client.expect([201], 'POST', '/v1/webhooks', {
      json: {
        url: hooks.url,
        events: ['run.needs_approval', 'run.succeeded', 'run.failed'],
        secret: 'drill-secret-0123456789',
      },
      idempotent: true,
    });
    const agent = await client.expect([201], 'POST', '/v1/agents', {
      json: { name: 'gated', presetId: 'scripted', settings: { approval: 'before_output' } },
      idempotent: true,
    });
    const [{ balance: before }] = await orm.em
      .fork()
      .getConnection()
      .execute('select credit_balance_micros::bigint as balance from workspaces where id = ?', [ws.id]);

    // --- steady load through the entry point, failures injected on a schedule -------------------
    const runIds = new Set<string>();
    const receipts: Receipt[] = [];
    const unanswered: string[] = [];
    let loading = true;
    const lane = async (n: number) => {
      for (let i = 0; loading; i++) {
        try {
          if ((i + n) % 3 === 2 && receipts.length < MAX_RECEIPTS) {
            const r = receipt(receipts.length);
            receipts.push(r);
            const file = await client.expect([201], 'POST', '/v1/files', {
              body: r.bytes,
              headers: { 'content-type': 'text/plain', 'x-filename': `receipt-${r.n}.txt` },
              idempotent: true,
            });
            r.id = file.id;
          } else {
            const created = await client.expect([200, 201], 'POST', '/v1/runs', {
              json: { agentId: agent.id, input: { script: [{ final: { lane: n, i } }] } },
              idempotent: true,
            });
            runIds.add(created.id);
          }
        } catch (err) {
          unanswered.push((err as Error).message);
        }
        await sleep(250);
      }
    };
    // Answers every gate as it appears, as a person at the console would.
    const approved = new Set<string>();
    const approveWaiting = async () => {
      const page = await client.send('GET', '/v1/runs?status=needs_approval&limit=100');
      for (const r of page.body?.runs ?? []) {
        if (approved.has(r.id)) continue;
        const res = await client.send('POST', `/v1/runs/${r.id}/approve`, {
          json: { approved: true },
          idempotent: true,
        });
        if (res.status === 202) approved.add(r.id);
      }
    };
    const approver = async () => {
      while (loading) {
        await approveWaiting().catch(() => undefined);
        await sleep(1000);
      }
    };
    const t0 = Date.now();
    const at = async (seconds: number) => sleep(Math.max(0, t0 + seconds * 1000 - Date.now()));
    const failures = async () => {
      const events: string[] = [];
      await at(6);
      topology.apis[0].kill9();
      topology.workers[0].kill9();
      events.push('killed api-1 and worker-1');
      await at(12);
      await temporalPg('stop-frontend');
      await sleep(3000);
      await temporalPg('start');
      events.push(`restarted the Temporal frontend (back at ${Math.round((Date.now() - t0) / 1000)} s)`);
      await at(22);
      const cut = await cutPool(orm, 'svc-api-2');
      checks.ok(cut > 0, 'no PostgreSQL session of api-2 to cut (PGAPPNAME not applied?)');
      events.push(`cut ${cut} PostgreSQL sessions of api-2`);
      await at(28);
      await Promise.all([topology.startApi(0), topology.startWorker(0)]);
      events.push(`api-1 and worker-1 back at ${Math.round((Date.now() - t0) / 1000)} s`);
      return events;
    };
    const lanes = Array.from({ length: LANES }, (_, n) => lane(n));
    const approving = approver();
    const events = await failures();
    await at(LOAD_SECONDS);
    loading = false;
    await Promise.all([...lanes, approving]);
    checks.ok(
      unanswered.length === 0,
      `${unanswered.length} requests never answered: ${unanswered.slice(0, 3).join('; ')}`,
    );

    // --- no run lost or stuck -----------------------------------------------------------------------
    const ids = [...runIds];
    const deadline = Date.now() + 120_000;
    let statuses = new Map<string, string>();
    for (;;) {
      await approveWaiting().catch(() => undefined);
      statuses = new Map();
      let cursor: string | null = null;
      do {
        const page: any = await client.expect(
          [200],
          'GET',
          `/v1/runs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        for (const r of page.runs) statuses.set(r.id, r.status);
        cursor = page.nextCursor;
      } while (cursor);
      if (ids.every((id) => statuses.get(id) === 'succeeded') || Date.now() > deadline) break;
      await sleep(1000);
    }
    const notDone = ids.filter((id) => statuses.get(id) !== 'succeeded');
    checks.ok(
      notDone.length === 0,
      `${notDone.length} of ${ids.length} runs not succeeded: ${notDone
        .slice(0, 5)
        .map((id) => `${id} ${statuses.get(id)}`)
        .join(', ')}`,
    );
    // A create whose workflow Temporal did not take in time (the frontend restarting) is answered 503 and
    // its run ends `failed` with `unavailable`, giving its Idempotency-Key back for the client's retry
    // (docs/api/runs.md): such a run is in the list, was never handed to a client, and was never charged.
    const givenUp = [...statuses.keys()].filter((id) => !runIds.has(id));
    for (const id of givenUp) {
      const seen = await client.expect([200], 'GET', `/v1/runs/${id}`);
      checks.ok(
        seen.status === 'failed' && seen.error?.code === 'unavailable',
        `run ${id} is in the workspace but no client was answered it, and it is ${seen.status} (${JSON.stringify(seen.error)}), not a start given up`,
      );
    }

    const hookSummary = await checkWebhooks(client, subscription.id, ids, hooks.received, checks);
    const chargeSummary = await checkCharges(orm, ws.id, ids, givenUp, Number(before), checks);

    // --- every file readable through both APIs and by the workers ------------------------------------
    const uploaded = receipts.filter((r) => r.id);
    let readable = 0;
    for (const r of uploaded) {
      for (const i of [0, 1]) {
        const res = await fetch(`${topology.apiUrl(i)}/v1/files/${r.id}/content`, {
          headers: { authorization: client.auth() },
        });
        const sha = createHash('sha256')
          .update(Buffer.from(await res.arrayBuffer()))
          .digest('hex');
        if (
          checks.ok(
            res.status === 200 && sha === r.sha256,
            `file ${r.id} through api-${i + 1}: ${res.status}, sha256 ${sha}`,
          )
        )
          readable++;
      }
    }
    const matched = await workersReadFiles(client, uploaded, checks);

    const limit = await checkSharedRateLimit(topology, checks);
    const other = Object.entries(client.statuses).filter(([s]) => Number(s) >= 500 && Number(s) !== 503);
    checks.ok(other.length === 0, `answers other than 503 among the 5xx: ${JSON.stringify(Object.fromEntries(other))}`);
    return [
      events.join('; '),
      `${ids.length - notDone.length}/${ids.length} gated runs succeeded (${givenUp.length} starts given up with 503 and retried)`,
      hookSummary,
      chargeSummary,
      `${uploaded.length} files, ${readable}/${uploaded.length * 2} reads through the two APIs, ${matched}/${uploaded.length} read by a worker`,
      limit,
      `answers ${JSON.stringify(client.statuses)}, ${client.networkErrors} dropped connections; entry ${JSON.stringify(topology.entry!.stats)}`,
    ].join('; ');
  } finally {
    await hooks.close();
  }
}

/**
 * The workers read the files: a finance reconciliation over all of them (docs/api/finance.md) proposes one
 * match per receipt, which it can only do from the receipt's bytes (its unique total).
 */
async function workersReadFiles(client: DrillClient, receipts: Receipt[], checks: Checks): Promise<number> {
  if (!receipts.length) return 0;
  const exportFile = await client.expect([201], 'POST', '/v1/files', {
    body: bankExport(receipts),
    headers: { 'content-type': 'text/csv', 'x-filename': 'bank.csv' },
    idempotent: true,
  });
  await client.expect([201], 'POST', '/v1/finance/imports', {
    json: {
      fileId: exportFile.id,
      format: 'csv',
      mapping: { date: 'date', description: 'description', amount: 'amount' },
    },
    idempotent: true,
  });
  const financeRun = await client.expect([201], 'POST', '/v1/finance/reconciliations', {
    json: { from: '2026-11-01', to: '2026-11-30', fileIds: receipts.map((r) => r.id) },
    idempotent: true,
  });
  const deadline = Date.now() + 60_000;
  let seen: any;
  do {
    await sleep(1000);
    seen = await client.expect([200], 'GET', `/v1/runs/${financeRun.id}`);
  } while (
    seen.status !== 'needs_approval' &&
    !['succeeded', 'failed', 'cancelled'].includes(seen.status) &&
    Date.now() < deadline
  );
  const matches: Array<{ fileId: string }> = seen.pendingAction?.args?.matches ?? [];
  const files = new Set(matches.map((m) => m.fileId));
  const unmatched = receipts.filter((r) => !files.has(r.id!));
  checks.ok(
    seen.status === 'needs_approval' && unmatched.length === 0,
    `the finance run is ${seen.status}; ${unmatched.length} receipts not read by a worker (e.g. ${unmatched[0]?.id})`,
  );
  return receipts.length - unmatched.length;
}

async function main(): Promise<number> {
  const started = Date.now();
  const dns = await startDnsServer();
  const config = loadConfig({ ...process.env, SVC_DNS_SERVERS: dns.address });
  const dataDir = process.env.SVC_DATA_DIR ?? path.join(ROOT, '.data/topology');
  const topology = new Topology(topologyPorts(), path.join(dataDir, 'logs'), {
    LOG_LEVEL: 'info',
    SVC_ALLOW_PRIVATE_WEBHOOKS: '1',
    SVC_ALLOW_PRIVATE_EGRESS: '1',
    SVC_SIGNUP_RATE_PER_MIN: '10000',
    SVC_DNS_SERVERS: dns.address,
  });
  const orm = await initOrm(config.databaseUrl, 4);
  const checks = new Checks();
  let detail = 'aborted';
  try {
    await topology.start();
    console.error(
      `[drill] topology up in ${Math.round((Date.now() - started) / 1000)} s: entry ${topology.entry!.url}; logs in ${topology.logDir}`,
    );
    detail = await drill(topology, orm, checks);
  } catch (err) {
    checks.failures.push(`drill aborted: ${(err as Error).stack ?? err}`);
  } finally {
    await topology.stop();
    await orm.close(true);
    await dns.close();
  }
  const pass = checks.failures.length === 0;
  for (const f of checks.failures) console.log(`  ✗ topology: ${f}`);
  console.log(
    `VERDICT topology: ${pass ? 'PASS' : 'FAIL'} (${detail}; ${Math.round((Date.now() - started) / 1000)} s)`,
  );
  return pass ? 0 : 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error('[drill] failed:', err);
      process.exit(1);
    },
  );
}
