import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CheckFailed, runAdmin } from '../../scripts/admin';
import { entryHash, GENESIS_HASH } from '../../domain/audit/chain';
import { recordAudit } from '../../domain/audit/record';
import { systemAuditContext } from '../../domain/audit/context';
import { startApi, type Harness } from '../helpers/harness';
import { signUp, type Account } from '../helpers/factories';
import { error, ok } from '../helpers/responses';
import { auditLog, type Headers } from './helpers';

// The chain that makes the audit log tamper-evident (docs/api/audit.md): one per workspace, linear under
// concurrent writers, append-only in PostgreSQL, and checked by `npm run admin -- audit:verify`.
describe('audit chain', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  async function workspaceWithKeys(n: number): Promise<{ account: Account; auth: Headers; ids: string[] }> {
    const account = await signUp(h);
    const auth = { cookie: account.cookie };
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const json = { name: `k${i}`, scopes: ['runs:read'] };
      ids.push((await ok(h.request('/v1/api-keys', { method: 'POST', headers: auth, json }), 201)).id);
    }
    return { account, auth, ids };
  }

  /** Superuser only: triggers off for this statement's session, as an operator tampering by hand would. */
  async function tamper(sql: string, params: unknown[]): Promise<void> {
    await h.orm.em.fork().transactional(async (tx) => {
      await tx.execute(`set local session_replication_role = replica`);
      await tx.execute(sql, params);
    });
  }

  it('links every entry to the one before; anyone can recompute the hashes from the API', async () => {
    const { account, auth } = await workspaceWithKeys(3);
    const entries = (await auditLog(h, auth)).reverse();
    expect(entries).toHaveLength(3);
    let prev = GENESIS_HASH;
    for (const { prevHash, hash, ...entry } of entries) {
      expect(prevHash).toBe(prev);
      expect(entryHash(prevHash, entry)).toBe(hash);
      prev = hash;
    }
    expect(await runAdmin(h.orm, ['audit:verify', account.workspaceId])).toBe(
      `audit chain of workspace ${account.workspaceId} verified: 3 entries`,
    );
  });

  it('keeps one linear chain under concurrent writers in one workspace', async () => {
    const { account, auth, ids } = await workspaceWithKeys(1);
    // 12 writes at once, of two kinds, each its own transaction
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2
          ? h.request('/v1/api-keys', { method: 'POST', headers: auth, json: { name: `p${i}`, scopes: ['runs:read'] } })
          : h.request(`/v1/api-keys/${ids[0]}/spend-cap`, {
              method: 'PUT',
              headers: auth,
              json: { monthlySpendCapUsd: i },
            }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([...Array(6).fill(200), ...Array(6).fill(201)]);
    const entries = (await auditLog(h, auth)).reverse();
    expect(entries).toHaveLength(13);
    // no two entries share a predecessor: a fork would
    expect(new Set(entries.map((e) => e.prevHash)).size).toBe(13);
    entries.slice(1).forEach((e, i) => expect(e.prevHash).toBe(entries[i].hash));
    // each cap change saw the one before it under the key's row lock
    const caps = entries.filter((e) => e.action === 'api_key.spend_cap_changed').map((e) => e.details);
    expect(caps[0].from).toBeNull();
    caps.slice(1).forEach((c, i) => expect(c.from).toBe(caps[i].to));
    await expect(runAdmin(h.orm, ['audit:verify', account.workspaceId])).resolves.toContain('verified: 13 entries');
  });

  it('refuses UPDATE, DELETE and TRUNCATE of entries in PostgreSQL itself', async () => {
    const { account } = await workspaceWithKeys(1);
    const db = h.orm.em.fork();
    const ws = account.workspaceId;
    await expect(db.execute(`update audit_entries set action = 'x' where workspace_id = ?`, [ws])).rejects.toThrow(
      /append-only/,
    );
    await expect(db.execute(`delete from audit_entries where workspace_id = ?`, [ws])).rejects.toThrow(/append-only/);
    await expect(db.execute(`truncate audit_entries`)).rejects.toThrow(/append-only/);
    await expect(runAdmin(h.orm, ['audit:verify', ws])).resolves.toContain('verified: 1 entries');
  });

  it('audit:verify names the first broken link of a chain changed by hand, and exits non-zero', async () => {
    const { account, auth } = await workspaceWithKeys(4);
    const ws = account.workspaceId;
    const entries = (await auditLog(h, auth)).reverse();
    await tamper(`update audit_entries set details = details || '{"name":"forged"}'::jsonb where id = ?`, [
      entries[2].id,
    ]);
    const broken = runAdmin(h.orm, ['audit:verify', ws]);
    await expect(broken).rejects.toThrow(CheckFailed);
    await expect(broken).rejects.toThrow(
      `audit chain of workspace ${ws} is broken at entry ${entries[2].id} (position 3): its content does not match its hash`,
    );

    // the operator's command, as run: message on stderr, exit code 1
    const run = promisify(execFile)('npx', ['tsx', 'scripts/admin.ts', 'audit:verify', ws], {
      cwd: `${__dirname}/../..`,
      env: process.env,
    });
    const failure = await run.then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`broken at entry ${entries[2].id} (position 3)`);
  }, 180_000);

  it('finds an entry removed from the middle, and one whose hash was rewritten to match', async () => {
    const removed = await workspaceWithKeys(3);
    const gone = (await auditLog(h, removed.auth)).reverse();
    await tamper('delete from audit_entries where id = ?', [gone[1].id]);
    await expect(runAdmin(h.orm, ['audit:verify', removed.account.workspaceId])).rejects.toThrow(
      `broken at entry ${gone[2].id} (position 2): its place in the chain is 3, expected 2`,
    );

    // rewriting one entry and its own hash still breaks the next entry's link
    const rewritten = await workspaceWithKeys(3);
    const [first, second] = (await auditLog(h, rewritten.auth)).reverse();
    const { prevHash, hash: _old, ...fields } = first;
    const forged = { ...fields, details: { ...fields.details, name: 'forged' } };
    await tamper(`update audit_entries set details = ?::jsonb, hash = ? where id = ?`, [
      JSON.stringify(forged.details),
      entryHash(prevHash, forged),
      first.id,
    ]);
    await expect(runAdmin(h.orm, ['audit:verify', rewritten.account.workspaceId])).rejects.toThrow(
      `broken at entry ${second.id} (position 2): its prevHash is not the previous entry's hash`,
    );
  });

  it('records in the transaction of the change: a failed change leaves no entry, and no entry is written alone', async () => {
    const { account, auth, ids } = await workspaceWithKeys(1);
    await ok(h.request(`/v1/api-keys/${ids[0]}`, { method: 'DELETE', headers: auth }), 204);
    await error(h.request(`/v1/api-keys/${ids[0]}`, { method: 'DELETE', headers: auth }), 404, 'not_found');
    expect((await auditLog(h, auth)).map((e) => e.action)).toEqual(['api_key.revoked', 'api_key.created']);
    const change = { action: 'api_key.revoked', resourceType: 'api_key', resourceId: ids[0] } as const;
    await expect(recordAudit(h.orm.em.fork(), systemAuditContext(account.workspaceId), change)).rejects.toThrow(
      /transaction/,
    );
    expect(await auditLog(h, auth)).toHaveLength(2);
  });
});
