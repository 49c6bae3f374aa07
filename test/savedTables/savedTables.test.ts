import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ScheduleNotFoundError } from '@temporalio/client';
import { Client } from 'pg';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { pollUntil } from '../helpers/poll';
import { error, ok } from '../helpers/responses';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { samplePostgres, type SampleDatabase } from '../helpers/sampleSources';
import { startRunStack } from '../helpers/worker';

type Headers = Record<string, string>;

/** A TCP relay to the sample database that the test can take down and bring back: a real outage. */
class Relay {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: number) {}

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined).on('close', () => this.sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

// Saved tables (docs/api/data-sources.md): reads materialised in PostgreSQL by the workflow saved-table-<id>.
describe('saved tables', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let manager: Headers;
  let reader: Headers;
  let other: Headers;
  let db: SampleDatabase;
  let relay: Relay;
  let sourceId: string;
  let workspaceId: string;

  beforeAll(async () => {
    db = await samplePostgres();
    relay = new Relay(db.port);
    await relay.up();
    ({ h, stop } = await startRunStack({ allowPrivateEgress: true }));
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(
      await createKey(h, owner, [
        'data_sources:read',
        'data_sources:manage',
        'agents:read',
        'agents:write',
        'runs:read',
        'runs:write',
        'runner:run',
      ]),
    );
    reader = bearer(await createKey(h, owner, ['data_sources:read', 'agents:read']));
    const stranger = await signUp(h);
    other = bearer(await createKey(h, stranger, ['data_sources:read', 'data_sources:manage', 'agents:write']));
    sourceId = (
      await ok(
        h.request('/v1/data-sources', {
          method: 'POST',
          headers: manager,
          json: { name: 'Relayed', type: 'postgres', config: { ...db, port: relay.port } },
        }),
        201,
      )
    ).id;
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    await relay?.down();
  });

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  const read = { object: 'customers', columns: ['id', 'name'], orderBy: [{ column: 'id' }] };
  const create = (body: Record<string, unknown> = {}) =>
    ok(call('POST', '/v1/saved-tables', manager, { name: 'Customers', dataSourceId: sourceId, read, ...body }), 201);
  const waitFor = (id: string, until: (t: any) => boolean, timeoutMs = 30_000): Promise<any> =>
    pollUntil(timeoutMs, () => ok(call('GET', `/v1/saved-tables/${id}`, reader), 200), until, 'the saved table state');

  it('materialises a read, pages its rows and refreshes in the workflow saved-table-<id>', async () => {
    const created = await create();
    expect(created).toMatchObject({
      name: 'Customers',
      dataSourceId: sourceId,
      read,
      refresh: { cron: null },
      rowCount: 0,
      refreshedAt: null,
      status: 'pending',
    });
    const done = await waitFor(created.id, (t) => t.status === 'ok');
    expect(done).toMatchObject({ rowCount: 5, columns: ['id', 'name'], error: null, refreshedAt: expect.any(String) });

    const first = await ok(call('GET', `/v1/saved-tables/${created.id}/rows?limit=2`, reader), 200);
    expect(first.rows).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
    ]);
    const second = await ok(
      call('GET', `/v1/saved-tables/${created.id}/rows?limit=10&cursor=${first.nextCursor}`, reader),
      200,
    );
    expect(second.rows.map((r: { id: number }) => r.id)).toEqual([3, 4, 5]);
    expect(second.nextCursor).toBeNull();
    await error(call('GET', `/v1/saved-tables/${created.id}/rows?cursor=bogus`, reader), 400, 'validation_error');

    const refreshed = await call('POST', `/v1/saved-tables/${created.id}/refresh`, reader);
    expect(refreshed.status).toBe(202);
    await waitFor(created.id, (t) => t.refreshedAt !== done.refreshedAt);
    const description = await h.temporal.client.workflow.getHandle(`saved-table-${created.id}`).describe();
    expect(description.type).toBe('savedTableRefreshWorkflow');
    expect(description.typedSearchAttributes.get(SvcWorkspaceId)).toBe(workspaceId);

    const { savedTables } = await ok(call('GET', '/v1/saved-tables', reader), 200);
    expect(savedTables.map((t: { id: string }) => t.id)).toContain(created.id);
  });

  it('reads the source again for a refresh asked while one runs: the rows are read after the request', async () => {
    // A table of its own in the sample: the shared customers stay as other files expect them.
    const table = `refresh_probe_${Date.now()}`;
    const sampleUrl = new URL(h.config.databaseUrl);
    sampleUrl.pathname = `/${db.database}`;
    const sample = new Client({ connectionString: sampleUrl.href });
    const service = new Client({ connectionString: h.config.databaseUrl });
    await Promise.all([sample.connect(), service.connect()]);
    try {
      await sample.query(`create table ${table} (id int primary key)`);
      await sample.query(`insert into ${table} values (1)`);
      await sample.query(`grant select on ${table} to ${db.user}`);
      const created = await ok(
        call('POST', '/v1/saved-tables', manager, {
          name: 'Probe',
          dataSourceId: sourceId,
          read: { object: table, columns: ['id'], orderBy: [{ column: 'id' }] },
        }),
        201,
      );
      await waitFor(created.id, (t) => t.status === 'ok' && t.rowCount === 1);

      // Hold the refresh between its read and its write: it has read one row when the second request comes.
      await service.query('begin');
      await service.query('select id from saved_tables where id = $1 for update', [created.id]);
      await ok(call('POST', `/v1/saved-tables/${created.id}/refresh`, manager), 202);
      const holder = (await service.query('select pg_backend_pid() as pid')).rows[0].pid;
      // blocked on the lock: the refresh has read the source and waits to write
      await pollUntil(
        30_000,
        async () =>
          (await service.query('select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [holder]))
            .rowCount,
        (blocked) => (blocked ?? 0) > 0,
      );
      await sample.query(`insert into ${table} values (2)`);
      await ok(call('POST', `/v1/saved-tables/${created.id}/refresh`, manager), 202);
      await service.query('rollback');

      const after = await waitFor(created.id, (t) => t.status === 'ok' && t.rowCount === 2);
      expect(after.error).toBeNull();
      const rows = await ok(call('GET', `/v1/saved-tables/${created.id}/rows`, reader), 200);
      expect(rows.rows).toEqual([{ id: 1 }, { id: 2 }]);
    } finally {
      await service.query('rollback').catch(() => undefined);
      await sample.query(`drop table if exists ${table}`);
      await Promise.all([sample.end(), service.end()]);
    }
  });

  it('records an outage of the source as an error and keeps the previous rows', async () => {
    const created = await create({ name: 'Outage' });
    const good = await waitFor(created.id, (t) => t.status === 'ok');
    await relay.down();
    try {
      await ok(call('POST', `/v1/saved-tables/${created.id}/refresh`, manager), 202);
      const failed = await waitFor(created.id, (t) => t.status === 'error');
      expect(failed.error).toEqual(expect.any(String));
      expect(failed.error).not.toContain(db.password);
      expect(failed).toMatchObject({ rowCount: 5, refreshedAt: good.refreshedAt });
      const rows = await ok(call('GET', `/v1/saved-tables/${created.id}/rows`, reader), 200);
      expect(rows.rows).toHaveLength(5);
    } finally {
      await relay.up();
    }
    await ok(call('POST', `/v1/saved-tables/${created.id}/refresh`, manager), 202);
    await waitFor(created.id, (t) => t.status === 'ok' && t.error === null);
  });

  it('keeps a cron as a Temporal Schedule that fires the refresh, and deletes it with the table', async () => {
    const created = await create({ name: 'Nightly', refresh: { cron: '0 3 * * *' } });
    const first = await waitFor(created.id, (t) => t.status === 'ok');
    const schedule = h.temporal.client.schedule.getHandle(`saved-table-${created.id}`);
    const described = await schedule.describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'savedTableRefreshWorkflow' });
    // the schedule fires now rather than at 03:00
    await schedule.trigger();
    await waitFor(created.id, (t) => t.refreshedAt !== first.refreshedAt);
    expect((await schedule.describe()).info.recentActions.length).toBeGreaterThan(0);

    expect((await call('DELETE', `/v1/saved-tables/${created.id}`, manager)).status).toBe(204);
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    await error(call('GET', `/v1/saved-tables/${created.id}`, reader), 404, 'not_found');
  });

  it('validates bodies and sources, scopes, and hides other workspaces', async () => {
    const created = await create({ name: 'Scoped' });
    await error(
      call('POST', '/v1/saved-tables', manager, {
        name: 'x',
        dataSourceId: '00000000-0000-4000-8000-000000000000',
        read,
      }),
      400,
      'validation_error',
    );
    await error(
      call('POST', '/v1/saved-tables', other, { name: 'x', dataSourceId: sourceId, read }),
      400,
      'validation_error',
    );
    await error(
      call('POST', '/v1/saved-tables', manager, {
        name: 'x',
        dataSourceId: sourceId,
        read: { object: 'customers', limit: 5000 },
      }),
      400,
      'validation_error',
    );
    await error(
      call('POST', '/v1/saved-tables', manager, {
        name: 'x',
        dataSourceId: sourceId,
        read,
        refresh: { cron: 'every day' },
      }),
      400,
      'validation_error',
    );
    await error(
      call('POST', '/v1/saved-tables', reader, { name: 'x', dataSourceId: sourceId, read }),
      403,
      'forbidden',
    );
    await error(call('DELETE', `/v1/saved-tables/${created.id}`, reader), 403, 'forbidden');
    for (const [method, path] of [
      ['GET', ''],
      ['GET', '/rows'],
      ['POST', '/refresh'],
      ['DELETE', ''],
    ]) {
      await error(call(method, `/v1/saved-tables/${created.id}${path}`, other), 404, 'not_found');
    }
    // a read of columns that do not exist fails its refresh, naming them
    const broken = await create({ name: 'Broken', read: { object: 'customers', columns: ['salary'] } });
    expect((await waitFor(broken.id, (t) => t.status === 'error')).error).toContain('"salary"');
  });

  it('links saved tables to agents: definition savedReads with runner:run, and the saved_table_rows tool', async () => {
    const table = await create({ name: 'People' });
    await waitFor(table.id, (t) => t.status === 'ok');
    await error(
      call('POST', '/v1/agents', manager, { name: 'a', savedTableIds: ['00000000-0000-4000-8000-000000000000'] }),
      400,
      'validation_error',
    );
    await error(call('POST', '/v1/agents', other, { name: 'a', savedTableIds: [table.id] }), 400, 'validation_error');
    const agent = await createAgent(h, manager, {
      presetId: 'scripted',
      tools: ['saved_table_rows'],
      savedTableIds: [table.id],
    });
    expect(agent.savedTableIds).toEqual([table.id]);

    const full = await ok(call('GET', `/v1/agents/${agent.id}/definition`, manager), 200);
    expect(full.savedReads).toEqual([{ savedTableId: table.id, name: 'People', read }]);
    const plain = await ok(call('GET', `/v1/agents/${agent.id}/definition`, reader), 200);
    expect(plain.savedReads).toBeUndefined();

    const run = await createRun(h, manager, {
      agentId: agent.id,
      input: {
        script: [
          { tool: 'saved_table_rows', args: { name: 'People', limit: 2, offset: 3 } },
          { finalToolResult: true },
        ],
      },
    });
    const done = await waitForStatus(h, manager, run.id, ['succeeded', 'failed']);
    expect(done.output).toMatchObject({
      savedTableId: table.id,
      columns: ['id', 'name'],
      rows: [
        { id: 4, name: "O'Brien" },
        { id: 5, name: 'Edsger' },
      ],
      rowCount: 5,
      nextOffset: null,
    });

    const unlinked = await ok(call('PATCH', `/v1/agents/${agent.id}`, manager, { savedTableIds: [] }), 200);
    expect(unlinked.savedTableIds).toEqual([]);
    const refused = await createRun(h, manager, {
      agentId: agent.id,
      input: { script: [{ tool: 'saved_table_rows', args: { name: 'People' } }, { finalToolResult: true }] },
    });
    expect((await waitForStatus(h, manager, refused.id, ['succeeded', 'failed'])).output).toEqual({
      error: expect.stringContaining('no saved table People is linked'),
    });
  }, 60_000);
});
