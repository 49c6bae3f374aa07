import { CheckFailed, runAdmin } from '../../scripts/admin';
import { startApi, type Harness } from '../helpers/harness';
import { signUp, type Account } from '../helpers/factories';
import { ok } from '../helpers/responses';
import { auditLog, type Headers } from './helpers';

// Audit retention (docs/api/audit.md#retention): `audit:prune` cuts the oldest entries of one workspace's
// chain, records where it cut, and the rest still verifies; nothing else may delete an entry.
describe('audit prune', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  async function workspaceWithKeys(n: number): Promise<{ account: Account; auth: Headers }> {
    const account = await signUp(h);
    const auth = { cookie: account.cookie };
    for (let i = 0; i < n; i += 1) {
      await ok(
        h.request('/v1/api-keys', { method: 'POST', headers: auth, json: { name: `k${i}`, scopes: ['runs:read'] } }),
        201,
      );
    }
    return { account, auth };
  }

  async function tamper(sql: string, params: unknown[]): Promise<void> {
    await h.orm.em.fork().transactional(async (tx) => {
      await tx.execute(`set local session_replication_role = replica`);
      await tx.execute(sql, params);
    });
  }

  const checkpoints = (workspaceId: string) =>
    h.orm.em
      .fork()
      .execute<Array<{ through_seq: number; through_hash: string; removed: number }>>(
        'select through_seq, through_hash, removed from audit_checkpoints where workspace_id = ? order by through_seq',
        [workspaceId],
      );

  it('cuts the entries before a date, records the cut, and the rest still verifies and grows', async () => {
    const { account, auth } = await workspaceWithKeys(5);
    const other = await workspaceWithKeys(2);
    const ws = account.workspaceId;
    const entries = (await auditLog(h, auth)).reverse();
    const before = entries[3].at as string;
    const cut = entries.filter((e) => e.at < before);
    expect(cut.length).toBeGreaterThanOrEqual(1);
    const last = cut[cut.length - 1];

    await expect(runAdmin(h.orm, ['audit:prune', ws, '--before', before])).resolves.toBe(
      `audit chain of workspace ${ws} pruned: ${cut.length} entries through position ${cut.length} (last hash ${last.hash})`,
    );
    expect(await checkpoints(ws)).toEqual([{ through_seq: cut.length, through_hash: last.hash, removed: cut.length }]);
    const left = (await auditLog(h, auth)).reverse();
    expect(left.map((e) => e.id)).toEqual(entries.slice(cut.length).map((e) => e.id));
    await expect(runAdmin(h.orm, ['audit:verify', ws])).resolves.toBe(
      `audit chain of workspace ${ws} verified: ${5 - cut.length} entries after the checkpoint at position ${cut.length}`,
    );
    // another workspace's chain is untouched
    await expect(runAdmin(h.orm, ['audit:verify', other.account.workspaceId])).resolves.toContain(
      'verified: 2 entries',
    );
    expect(await auditLog(h, other.auth)).toHaveLength(2);

    // the same cut again removes nothing; new entries link on
    await expect(runAdmin(h.orm, ['audit:prune', ws, '--before', before])).resolves.toBe(
      `audit chain of workspace ${ws}: no entry before ${before}`,
    );
    await ok(
      h.request('/v1/api-keys', { method: 'POST', headers: auth, json: { name: 'later', scopes: ['runs:read'] } }),
      201,
    );
    await expect(runAdmin(h.orm, ['audit:verify', ws])).resolves.toContain(`verified: ${6 - cut.length} entries`);
  });

  it('goes on from the checkpoint when the whole log was cut', async () => {
    const { account, auth } = await workspaceWithKeys(2);
    const ws = account.workspaceId;
    const [, newest] = (await auditLog(h, auth)).reverse();
    const future = new Date(Date.now() + 60_000).toISOString();
    await expect(runAdmin(h.orm, ['audit:prune', ws, '--before', future])).resolves.toContain('pruned: 2 entries');
    expect(await auditLog(h, auth)).toEqual([]);
    await ok(
      h.request('/v1/api-keys', { method: 'POST', headers: auth, json: { name: 'next', scopes: ['runs:read'] } }),
      201,
    );
    const [next] = await auditLog(h, auth);
    expect(next.prevHash).toBe(newest.hash);
    await expect(runAdmin(h.orm, ['audit:verify', ws])).resolves.toBe(
      `audit chain of workspace ${ws} verified: 1 entries after the checkpoint at position 2`,
    );
  });

  it('still finds a row edited by hand after a prune, and never prunes a broken chain', async () => {
    const { account, auth } = await workspaceWithKeys(4);
    const ws = account.workspaceId;
    const entries = (await auditLog(h, auth)).reverse();
    await runAdmin(h.orm, ['audit:prune', ws, '--before', entries[2].at]);
    const [{ through_seq: through }] = await checkpoints(ws);
    const edited = entries[3];
    await tamper(`update audit_entries set details = details || '{"name":"forged"}'::jsonb where id = ?`, [edited.id]);
    const broken = `audit chain of workspace ${ws} is broken at entry ${edited.id} (position 4): its content does not match its hash`;
    await expect(runAdmin(h.orm, ['audit:verify', ws])).rejects.toThrow(broken);

    // a prune now would hide the edit: it refuses and removes nothing
    const prune = runAdmin(h.orm, ['audit:prune', ws, '--before', new Date(Date.now() + 60_000).toISOString()]);
    await expect(prune).rejects.toThrow(CheckFailed);
    await expect(prune).rejects.toThrow(`${broken}; nothing was pruned`);
    expect(await auditLog(h, auth)).toHaveLength(4 - through);
    expect(await checkpoints(ws)).toHaveLength(1);

    // removing the first entry after the cut breaks the link to the checkpoint
    const second = await workspaceWithKeys(3);
    const rows = (await auditLog(h, second.auth)).reverse();
    await runAdmin(h.orm, ['audit:prune', second.account.workspaceId, '--before', rows[1].at]);
    const [{ through_seq: cutAt }] = await checkpoints(second.account.workspaceId);
    await tamper('delete from audit_entries where id = ?', [rows[cutAt].id]);
    await expect(runAdmin(h.orm, ['audit:verify', second.account.workspaceId])).rejects.toThrow(
      `(position ${cutAt + 1}): its place in the chain is ${cutAt + 2}, expected ${cutAt + 1}`,
    );
  });

  it('lets no other path delete: not without the setting, not beyond a checkpoint, never an update', async () => {
    const { account, auth } = await workspaceWithKeys(3);
    const ws = account.workspaceId;
    const entries = (await auditLog(h, auth)).reverse();
    await runAdmin(h.orm, ['audit:prune', ws, '--before', entries[1].at]);
    const db = h.orm.em.fork();
    await expect(db.execute('delete from audit_entries where workspace_id = ?', [ws])).rejects.toThrow(/append-only/);
    const inPrune = (sql: string) =>
      h.orm.em.fork().transactional(async (tx) => {
        await tx.execute(`select set_config('svc.audit_prune', ?, true)`, [ws]);
        await tx.execute(sql, [ws]);
      });
    // the setting alone does not reach past the recorded cut, nor allow an update
    await expect(inPrune('delete from audit_entries where workspace_id = ?')).rejects.toThrow(/append-only/);
    await expect(inPrune(`update audit_entries set action = 'x' where workspace_id = ?`)).rejects.toThrow(
      /append-only/,
    );
    await expect(db.execute('delete from audit_checkpoints where workspace_id = ?', [ws])).rejects.toThrow(
      /append-only/,
    );
    await expect(db.execute(`update audit_checkpoints set removed = 0 where workspace_id = ?`, [ws])).rejects.toThrow(
      /append-only/,
    );
    await expect(runAdmin(h.orm, ['audit:verify', ws])).resolves.toContain('verified');
    await expect(runAdmin(h.orm, ['audit:prune', ws, '--before', 'yesterday'])).rejects.toThrow('--before <date>');
  });
});
