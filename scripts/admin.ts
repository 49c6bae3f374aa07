import { randomUUID } from 'node:crypto';
import { loadConfig } from '../platform/config';
import { markEmailVerified } from '../domain/identity/accounts';
import { issueApiKey } from '../domain/identity/apiKeys';
import { isScope } from '../domain/identity/scopes';
import { usdToMicros } from '../domain/shared/money';
import { LockMode } from '@mikro-orm/core';
import { LedgerEntry, PLANS, Workspace, type Plan } from '../db/entities';
import { initOrm, type Orm } from '../db/orm';
import { resealFlowHeaders } from '../domain/flows/headerSecrets';
import { rotateSecrets } from '../domain/secrets/rotation';
import { createSecretBox, type SecretKeyRing } from '../platform/secrets';
import { systemAuditContext } from '../domain/audit/context';
import { recordAudit } from '../domain/audit/record';
import { pruneAuditChain } from '../domain/audit/prune';
import { verifyAuditChain } from '../domain/audit/verify';

const USAGE = `usage: npm run admin -- <command>
  workspace:plan <workspaceId> <${PLANS.join('|')}>
  credits:set <workspaceId> <usd>
  user:verify <email>
  keys:create <workspaceId> <name> <scope,scope,...>   (prints the plaintext key once)
  secrets:rotate                                       (re-seals every stored secret under SVC_SECRETS_KEY)
  audit:verify <workspaceId>                           (recomputes the audit chain; exit 1 at a broken link)
  audit:prune <workspaceId> --before <date>            (cuts the entries recorded before <date>, keeping a checkpoint)`;

class UsageError extends Error {}

/** A check that found something wrong (exit code 1, the message says what). */
export class CheckFailed extends Error {}

async function workspace(orm: Orm, id: string): Promise<Workspace> {
  const ws = await orm.em.fork().findOne(Workspace, { id: /^[0-9a-f-]{36}$/i.test(id) ? id : randomUUID() });
  if (!ws) throw new UsageError(`no workspace ${id}`);
  return ws;
}

/**
 * The operator commands listed in USAGE. Returns the line to print; throws UsageError for a bad command line.
 * `secretKeys` is the configured key ring (`secrets:rotate` needs it).
 */
export async function runAdmin(orm: Orm, argv: string[], secretKeys?: SecretKeyRing): Promise<string> {
  const [command, ...args] = argv;
  const em = orm.em.fork();
  switch (command) {
    case 'workspace:plan': {
      const [id, plan] = args;
      if (!PLANS.includes(plan as Plan)) throw new UsageError(`plan must be one of ${PLANS.join(', ')}`);
      const ws = await workspace(orm, id);
      await em.transactional(async (tx) => {
        const locked = await tx.findOneOrFail(Workspace, ws.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (locked.plan === plan) return;
        const from = locked.plan;
        await tx.nativeUpdate(Workspace, { id: ws.id }, { plan: plan as Plan });
        await recordAudit(tx, systemAuditContext(ws.id), {
          action: 'workspace.plan_changed',
          resourceType: 'workspace',
          resourceId: ws.id,
          details: { from, to: plan },
        });
      });
      return `workspace ${ws.id} is now on plan ${plan}`;
    }
    case 'credits:set': {
      const [id, usdText] = args;
      const usd = Number(usdText);
      if (!Number.isFinite(usd) || usd < 0) throw new UsageError('usd must be a non-negative number');
      const ws = await workspace(orm, id);
      const target = usdToMicros(usd);
      // The change is a ledger row too, so the balance always equals the sum of its history.
      await em.transactional(async (tx) => {
        const locked = await tx.findOneOrFail(Workspace, ws.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const delta = target - locked.creditBalanceMicros;
        locked.creditBalanceMicros = target;
        tx.persist(new LedgerEntry(locked, 'adjustment', delta, 'Operator set the balance'));
      });
      return `workspace ${ws.id} balance set to ${usd} USD`;
    }
    case 'user:verify': {
      const [email] = args;
      if (!email) throw new UsageError('email required');
      if (!(await markEmailVerified(em, email))) throw new UsageError(`no user ${email}`);
      return `user ${email.toLowerCase()} verified`;
    }
    case 'keys:create': {
      const [id, name, scopeList] = args;
      const scopes = (scopeList ?? '').split(',').filter(Boolean);
      if (!name || scopes.length === 0) throw new UsageError('name and at least one scope required');
      const bad = scopes.filter((s) => !isScope(s));
      if (bad.length) throw new UsageError(`unknown scope(s): ${bad.join(', ')} (no wildcards)`);
      const ws = await workspace(orm, id);
      return (await issueApiKey(em, systemAuditContext(ws.id), name, scopes.filter(isScope))).plaintext;
    }
    case 'secrets:rotate': {
      if (!secretKeys) throw new UsageError('SVC_SECRETS_KEY is not set: there is no key to seal under');
      const box = createSecretBox(secretKeys);
      const report = [...(await rotateSecrets(em, box)), ...(await resealFlowHeaders(em, box))];
      const lines = report.map(
        (c) =>
          `${`${c.table}.${c.column}`.padEnd(36)} resealed ${c.resealed}, already current ${c.current}, failed ${c.failed}`,
      );
      return [`secrets sealed under key ${secretKeys.current.kid}:`, ...lines].join('\n');
    }
    case 'audit:verify': {
      const ws = await workspace(orm, args[0] ?? '');
      const report = await verifyAuditChain(em, ws.id);
      if (report.broken) {
        const { id: entryId, position, reason } = report.broken;
        throw new CheckFailed(
          `audit chain of workspace ${ws.id} is broken at entry ${entryId} (position ${position}): ${reason}`,
        );
      }
      const after = report.checkpoint ? ` after the checkpoint at position ${report.checkpoint}` : '';
      return `audit chain of workspace ${ws.id} verified: ${report.entries} entries${after}`;
    }
    case 'audit:prune': {
      const [id, flag, when] = args;
      const before = flag === '--before' && when ? new Date(when) : null;
      if (!before || Number.isNaN(before.getTime())) {
        throw new UsageError('audit:prune needs --before <date> (an ISO-8601 date or instant)');
      }
      const ws = await workspace(orm, id ?? '');
      const result = await pruneAuditChain(em, ws.id, before);
      if (result.kind === 'broken') {
        const { id: entryId, position, reason } = result.broken;
        throw new CheckFailed(
          `audit chain of workspace ${ws.id} is broken at entry ${entryId} (position ${position}): ${reason}; nothing was pruned`,
        );
      }
      if (result.kind === 'nothing')
        return `audit chain of workspace ${ws.id}: no entry before ${before.toISOString()}`;
      return `audit chain of workspace ${ws.id} pruned: ${result.removed} entries through position ${result.throughSeq} (last hash ${result.throughHash})`;
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command');
  }
}

if (require.main === module) {
  (async () => {
    const config = loadConfig();
    const orm = await initOrm(config.databaseUrl, 2);
    try {
      console.log(await runAdmin(orm, process.argv.slice(2), config.secretKeys));
    } catch (err) {
      console.error(
        err instanceof UsageError
          ? `${err.message}\n\n${USAGE}`
          : err instanceof CheckFailed
            ? err.message
            : `admin failed: ${(err as Error).message}`,
      );
      process.exitCode = err instanceof UsageError ? 2 : 1;
    } finally {
      await orm.close(true);
    }
  })().catch((err: unknown) => {
    // no configuration or no database: nothing was done
    console.error(`admin failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
