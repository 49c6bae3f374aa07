import path from 'node:path';
import { loadConfig } from '../../platform/config';
import { createTemporal } from '../../platform/temporal';
import { initOrm } from '../../db/orm';
import { ROOT } from '../helpers/live/processes';
import { startDnsServer } from '../helpers/dnsServer';
import { apiKillDrill } from './apiKill';
import { evalKillDrill } from './evalKill';
import { flowKillDrill } from './flowKill';
import { conversationKillDrill } from './conversationKill';
import { Checks, startApi, startWorker, type DrillEnv } from './lib';
import { postgresOutageDrill } from './postgresOutage';
import { temporalRestartDrill } from './temporalRestart';
import { webhookReceiversDrill } from './webhookReceivers';
import { workerKillDrill } from './workerKill';

/**
 * `npm run drill` (through test/drills/run.sh, which starts PostgreSQL and Temporal on the drills'
 * own ports and data dir): scripted failure drills against real processes. Each prints
 * `VERDICT <name>: PASS|FAIL (...)`; the exit code is non-zero when any drill fails.
 * `npm run drill -- worker-kill postgres-outage` runs a subset.
 */

const DRILLS: Record<string, (env: DrillEnv, checks: Checks) => Promise<string>> = {
  'worker-kill': workerKillDrill,
  'api-kill': apiKillDrill,
  'temporal-restart': temporalRestartDrill,
  'postgres-outage': postgresOutageDrill,
  'webhook-receivers': webhookReceiversDrill,
  'eval-kill': evalKillDrill,
  'flow-kill': flowKillDrill,
  'conversation-kill': conversationKillDrill,
};

async function main(): Promise<number> {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(DRILLS);
  const unknown = names.filter((n) => !DRILLS[n]);
  if (unknown.length)
    throw new Error(`unknown drill(s) ${unknown.join(', ')}; known: ${Object.keys(DRILLS).join(', ')}`);

  // the drills' receivers are IP literals; any name the processes still resolve is asked of this server on
  // 127.0.0.1, never of the machine's resolver (SVC_DNS_SERVERS, docs/architecture.md)
  const dns = await startDnsServer();
  const config = loadConfig({ ...process.env, SVC_DNS_SERVERS: dns.address });
  const dataDir = process.env.SVC_DATA_DIR ?? path.join(ROOT, '.data/drill');
  // api and worker are filled in by startApi/startWorker below
  const env = {
    apiPort: Number(process.env.DRILL_API_PORT ?? 4410),
    logDir: path.join(dataDir, 'logs'),
    childEnv: {
      LOG_LEVEL: 'info',
      SVC_ALLOW_PRIVATE_WEBHOOKS: '1',
      SVC_ALLOW_PRIVATE_EGRESS: '1',
      SVC_SIGNUP_RATE_PER_MIN: '10000',
      SVC_DNS_SERVERS: dns.address,
    },
    orm: await initOrm(config.databaseUrl, 4),
    client: createTemporal(config.temporal).client,
  } as Partial<DrillEnv> as DrillEnv;
  const t0 = Date.now();
  await Promise.all([startApi(env), startWorker(env)]);
  console.error(
    `[drill] API ${env.api.url} and a worker are up (${Math.round((Date.now() - t0) / 1000)} s); logs in ${env.logDir}`,
  );

  const verdicts: string[] = [];
  let failed = 0;
  for (const name of names) {
    const checks = new Checks();
    const started = Date.now();
    console.error(`[drill] ${name} …`);
    let detail: string;
    try {
      // A drill may have killed a process and failed before starting it again.
      if (!env.api.alive()) await startApi(env);
      if (!env.worker.alive()) await startWorker(env);
      detail = await DRILLS[name](env, checks);
    } catch (err) {
      checks.failures.push(`drill aborted: ${(err as Error).stack ?? err}`);
      detail = 'aborted';
    }
    const seconds = Math.round((Date.now() - started) / 1000);
    const pass = checks.failures.length === 0;
    if (!pass) failed++;
    const line = `VERDICT ${name}: ${pass ? 'PASS' : 'FAIL'} (${detail}; ${seconds} s)`;
    for (const f of checks.failures) console.log(`  ✗ ${name}: ${f}`);
    console.log(line);
    verdicts.push(line);
  }

  await Promise.all([env.api.stop(), env.worker.stop()]);
  await env.orm.close(true);
  await dns.close();
  console.log(
    `\n${names.length - failed} of ${names.length} drills passed in ${Math.round((Date.now() - t0) / 1000)} s`,
  );
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[drill] failed:', err);
    process.exit(1);
  },
);
