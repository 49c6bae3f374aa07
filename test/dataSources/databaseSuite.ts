import { randomUUID } from 'node:crypto';
import { DataSource } from '../../db/entities/DataSource';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { bigRowsTable, INJECTION_PAYLOADS, type SampleDatabase } from '../helpers/sampleSources';

type Headers = Record<string, string>;

/**
 * The behaviour every database source shares (docs/api/data-sources.md), against a real server:
 * `postgres.test.ts` and `mysql.test.ts` run it with their sample database.
 */
export function databaseSourceSuite(type: 'postgres' | 'mysql', sample: () => Promise<SampleDatabase>): void {
  let h: Harness;
  let db: SampleDatabase;
  let manager: Headers;
  let reader: Headers;
  let other: Headers;
  let sourceId: string;

  beforeAll(async () => {
    db = await sample();
    h = await startApi({ allowPrivateEgress: true });
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['data_sources:read', 'data_sources:manage']));
    reader = bearer(await createKey(h, owner, ['data_sources:read']));
    const stranger = await signUp(h);
    await setPlan(h, stranger.workspaceId, 'scale');
    other = bearer(await createKey(h, stranger, ['data_sources:read', 'data_sources:manage']));
    sourceId = (await create({ name: 'Sample' })).id;
  });
  afterAll(() => h?.close());

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  const config = (overrides: Partial<SampleDatabase> = {}) => ({ ...db, ...overrides });
  const create = (body: { name: string; config?: object }, headers = manager) =>
    ok(call('POST', '/v1/data-sources', headers, { type, config: config(), ...body }), 201);
  const read = (body: object, id = sourceId) => call('POST', `/v1/data-sources/${id}/read`, reader, body);

  it('creates, lists, reads, updates and deletes sources, never returning the password', async () => {
    const res = await call('POST', '/v1/data-sources', manager, { name: 'Another', type, config: config() });
    const raw = await res.text();
    expect(res.status).toBe(201);
    expect(raw).not.toContain(db.password);
    const created = JSON.parse(raw);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Another',
      type,
      status: 'untested',
      config: { host: db.host, port: db.port, database: db.database, user: db.user, ssl: false },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await ok(call('GET', `/v1/data-sources/${created.id}`, reader), 200)).toEqual(created);
    const list = await call('GET', '/v1/data-sources?limit=100', reader);
    const listed = await list.text();
    expect(listed).not.toContain(db.password);
    expect(JSON.parse(listed).dataSources.map((s: { id: string }) => s.id)).toContain(created.id);
    const patched = await ok(call('PATCH', `/v1/data-sources/${created.id}`, manager, { name: 'Renamed' }), 200);
    expect(patched).toMatchObject({ name: 'Renamed', status: 'untested' });
    expect((await call('DELETE', `/v1/data-sources/${created.id}`, manager)).status).toBe(204);
    await error(call('GET', `/v1/data-sources/${created.id}`, reader), 404, 'not_found');
  });

  it('stores the password encrypted at rest', async () => {
    const row = await h.orm.em.fork().findOneOrFail(DataSource, sourceId);
    expect(row.secret).toMatch(/^v2\.[0-9a-f]{8}\./);
    expect(row.secret).not.toContain(db.password);
    expect(JSON.stringify(row.config)).not.toContain(db.password);
  });

  it('tests a connection and records the status; bad credentials are an error without the password', async () => {
    expect(await ok(call('POST', `/v1/data-sources/${sourceId}/test`, manager), 200)).toEqual({
      ok: true,
      latencyMs: expect.any(Number),
    });
    expect((await ok(call('GET', `/v1/data-sources/${sourceId}`, reader), 200)).status).toBe('ok');

    const wrong = `Wrong-${randomUUID()}`;
    const bad = await create({ name: 'Bad', config: config({ user: 'nobody_here', password: wrong }) });
    const outcome = await ok(call('POST', `/v1/data-sources/${bad.id}/test`, manager), 200);
    expect(outcome).toMatchObject({ ok: false, latencyMs: expect.any(Number), error: expect.any(String) });
    expect(outcome.error).not.toContain(wrong);
    expect((await ok(call('GET', `/v1/data-sources/${bad.id}`, reader), 200)).status).toBe('error');
    const e = await error(read({ object: 'customers' }, bad.id), 409, 'conflict');
    expect(e.message).not.toContain(wrong);
    expect(h.logs.join('\n')).not.toContain(wrong);
    expect(h.logs.join('\n')).not.toContain(db.password);

    // a changed password is untested again and then works
    await ok(
      call('PATCH', `/v1/data-sources/${bad.id}`, manager, { config: { user: db.user, password: db.password } }),
      200,
    );
    expect((await ok(call('POST', `/v1/data-sources/${bad.id}/test`, manager), 200)).ok).toBe(true);
  });

  it('asks for the password again when the host, port or user changes, and keeps the stored one in place', async () => {
    const moved = await create({ name: 'Moved' });
    const path = `/v1/data-sources/${moved.id}`;
    const before = await h.orm.em.fork().findOneOrFail(DataSource, moved.id);
    for (const change of [{ host: 'localhost' }, { port: db.port + 1 }, { user: 'someone_else' }]) {
      const e = await error(call('PATCH', path, manager, { config: change }), 400, 'validation_error');
      expect(e.details.issues).toEqual([{ path: 'config.password', message: expect.any(String) }]);
    }
    const after = await h.orm.em.fork().findOneOrFail(DataSource, moved.id);
    expect(after.config).toEqual(before.config);
    expect(after.secret).toBe(before.secret);
    // the same host again, or settings that keep the password on the same server, need no password
    await ok(call('PATCH', path, manager, { config: { host: db.host, database: db.database, ssl: false } }), 200);
    const withPassword = await ok(
      call('PATCH', path, manager, { config: { host: 'localhost', password: 'a-new-one' } }),
      200,
    );
    expect(withPassword.config.host).toBe('localhost');
  });

  it('lists objects and describes their columns', async () => {
    const { objects } = await ok(call('GET', `/v1/data-sources/${sourceId}/objects`, reader), 200);
    expect(objects).toEqual(
      expect.arrayContaining([
        { name: 'customers', kind: 'table' },
        { name: 'london_customers', kind: 'view' },
      ]),
    );
    const described = await ok(call('GET', `/v1/data-sources/${sourceId}/objects/customers`, reader), 200);
    expect(described.name).toBe('customers');
    expect(described.columns.map((c: { name: string }) => c.name)).toEqual([
      'id',
      'name',
      'city',
      'score',
      'signed_up',
    ]);
    expect(described.columns.find((c: { name: string }) => c.name === 'score').nullable).toBe(true);
    expect(described.columns.find((c: { name: string }) => c.name === 'name').nullable).toBe(false);
    await error(call('GET', `/v1/data-sources/${sourceId}/objects/nope`, reader), 404, 'not_found');
  });

  it('reads with columns, filters, order and a limit', async () => {
    const all = await ok(read({ object: 'customers', orderBy: [{ column: 'id' }] }), 200);
    expect(all.columns).toEqual(['id', 'name', 'city', 'score', 'signed_up']);
    expect(all.rows).toHaveLength(5);
    expect(all.truncated).toBe(false);
    const some = await ok(
      read({
        object: 'customers',
        columns: ['name'],
        where: [
          { column: 'id', op: 'in', value: [1, 2, 5] },
          { column: 'city', op: 'ne', value: 'London' },
        ],
        orderBy: [{ column: 'name', desc: true }],
      }),
      200,
    );
    expect(some).toEqual({ columns: ['name'], rows: [{ name: 'Grace' }, { name: 'Edsger' }], truncated: false });
    const nulls = await ok(
      read({ object: 'customers', columns: ['name'], where: [{ column: 'score', op: 'is_null' }] }),
      200,
    );
    expect(nulls.rows).toEqual([{ name: 'Linus' }]);
    const like = await ok(
      read({ object: 'customers', columns: ['name'], where: [{ column: 'name', op: 'like', value: 'O%' }] }),
      200,
    );
    expect(like.rows).toEqual([{ name: "O'Brien" }]);
    const gt = await ok(
      read({
        object: 'customers',
        columns: ['id'],
        where: [{ column: 'id', op: 'gte', value: 4 }],
        orderBy: [{ column: 'id' }],
      }),
      200,
    );
    expect(gt.rows).toEqual([{ id: 4 }, { id: 5 }]);
    const limited = await ok(
      read({ object: 'customers', columns: ['id'], orderBy: [{ column: 'id' }], limit: 2 }),
      200,
    );
    expect(limited).toEqual({ columns: ['id'], rows: [{ id: 1 }, { id: 2 }], truncated: true });
    const view = await ok(read({ object: 'london_customers' }), 200);
    expect(view.rows).toEqual([{ id: 1, name: 'Ada' }]);
  });

  it('refuses unknown objects, columns and operators with 400 naming them', async () => {
    let e = await error(read({ object: 'nope' }), 400, 'validation_error');
    expect(e.details.issues[0]).toMatchObject({ path: 'object', message: expect.stringContaining('nope') });
    e = await error(read({ object: 'customers', columns: ['id', 'salary'] }), 400, 'validation_error');
    expect(e.details.issues).toEqual([{ path: 'columns.1', message: expect.stringContaining('"salary"') }]);
    e = await error(
      read({ object: 'customers', where: [{ column: 'age', op: 'eq', value: 1 }] }),
      400,
      'validation_error',
    );
    expect(e.details.issues[0]).toMatchObject({ path: 'where.0.column', message: expect.stringContaining('"age"') });
    e = await error(read({ object: 'customers', orderBy: [{ column: 'rank' }] }), 400, 'validation_error');
    expect(e.details.issues[0].message).toContain('"rank"');
    e = await error(
      read({ object: 'customers', where: [{ column: 'id', op: 'between', value: 1 }] }),
      400,
      'validation_error',
    );
    expect(e.details.issues[0].path).toBe('where.0.op');
    await error(read({ object: 'customers', where: [{ column: 'id', op: 'in', value: 1 }] }), 400, 'validation_error');
    await error(read({ object: 'customers', limit: 1001 }), 400, 'validation_error');
    // a table the read-only role cannot see does not exist for the caller
    await error(read({ object: 'secrets_table' }), 400, 'validation_error');
  });

  it('treats SQL-injection payloads as unknown identifiers or as harmless values', async () => {
    for (const payload of INJECTION_PAYLOADS) {
      await error(read({ object: payload }), 400, 'validation_error');
      await error(read({ object: 'customers', columns: [payload] }), 400, 'validation_error');
      await error(read({ object: 'customers', orderBy: [{ column: payload }] }), 400, 'validation_error');
      await error(
        read({ object: 'customers', where: [{ column: payload, op: 'eq', value: 1 }] }),
        400,
        'validation_error',
      );
      for (const column of ['name', 'id']) {
        for (const op of ['eq', 'like', 'gt']) {
          const res = await read({ object: 'customers', where: [{ column, op, value: payload }] });
          expect([200, 400]).toContain(res.status);
          const body = await res.json();
          // equality and patterns match no name; an ordering compares the payload as the string it is
          if (res.status === 200 && op !== 'gt') expect(body.rows).toEqual([]);
          if (res.status === 400) expect(body.error.code).toBe('validation_error');
        }
      }
      const inList = await read({
        object: 'customers',
        where: [{ column: 'name', op: 'in', value: [payload, 'Ada'] }],
      });
      expect((await inList.json()).rows).toHaveLength(1);
    }
    // everything is still there
    expect((await ok(read({ object: 'customers' }), 200)).rows).toHaveLength(5);
  });

  it('is scoped: read keys cannot manage, other scopes cannot read', async () => {
    await error(call('POST', '/v1/data-sources', reader, { name: 'x', type, config: config() }), 403, 'forbidden');
    await error(call('PATCH', `/v1/data-sources/${sourceId}`, reader, { name: 'x' }), 403, 'forbidden');
    await error(call('DELETE', `/v1/data-sources/${sourceId}`, reader), 403, 'forbidden');
    await error(call('POST', `/v1/data-sources/${sourceId}/test`, reader), 403, 'forbidden');
    const account = await signUp(h);
    const none = bearer(await createKey(h, account, ['runs:read']));
    await error(call('GET', '/v1/data-sources', none), 403, 'forbidden');
    await error(call('POST', `/v1/data-sources/${sourceId}/read`, none, { object: 'customers' }), 403, 'forbidden');
  });

  it("answers 404 for another workspace's source on every route", async () => {
    const base = `/v1/data-sources/${sourceId}`;
    await error(call('GET', base, other), 404, 'not_found');
    await error(call('PATCH', base, other, { name: 'x' }), 404, 'not_found');
    await error(call('DELETE', base, other), 404, 'not_found');
    await error(call('POST', `${base}/test`, other), 404, 'not_found');
    await error(call('GET', `${base}/objects`, other), 404, 'not_found');
    await error(call('GET', `${base}/objects/customers`, other), 404, 'not_found');
    await error(call('POST', `${base}/read`, other, { object: 'customers' }), 404, 'not_found');
    const list = await ok(call('GET', '/v1/data-sources', other), 200);
    expect(list.dataSources.map((s: { id: string }) => s.id)).not.toContain(sourceId);
  });

  it('stops a read at SVC_MAX_READ_BYTES and answers the rows that fit as truncated, even past one huge value', async () => {
    const KiB = 1024;
    // 400 KiB rows against a 1 MiB budget: two fit; then an 8 MiB value, cut on the wire past the budget
    const table = await bigRowsTable(type, [400 * KiB, 400 * KiB, 400 * KiB, 400 * KiB, 400 * KiB]);
    const huge = await bigRowsTable(type, [100 * KiB, 8 * 1024 * KiB, 100 * KiB]);
    const small = await startApi({ allowPrivateEgress: true, maxReadBytes: 1024 * KiB });
    try {
      const readSmall = (object: string) =>
        ok(
          small.request(`/v1/data-sources/${sourceId}/read`, {
            method: 'POST',
            headers: reader,
            json: { object, orderBy: [{ column: 'id' }], limit: 1000 },
          }),
          200,
        );
      const capped = await readSmall(table.name);
      expect(capped.truncated).toBe(true);
      expect(capped.rows.map((r: { id: number }) => r.id)).toEqual([1, 2]);
      const rss = process.memoryUsage().rss;
      const cut = await readSmall(huge.name);
      expect(cut.truncated).toBe(true);
      expect(cut.rows.map((r: { id: number }) => r.id)).toEqual([1]);
      expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * KiB);
      // the same rows under the default budget are all there
      const all = await ok(read({ object: table.name, columns: ['id'], limit: 1000 }), 200);
      expect(all).toMatchObject({ truncated: false, rows: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }] });
    } finally {
      await small.close();
      await table.drop();
      await huge.drop();
    }
  });

  it('keeps database hosts behind the public-address guard unless private egress is allowed', async () => {
    const guarded = await startApi({ allowPrivateEgress: false });
    try {
      const outcome = await ok(
        guarded.request(`/v1/data-sources/${sourceId}/test`, { method: 'POST', headers: manager }),
        200,
      );
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toMatch(/loopback/);
      await error(
        guarded.request(`/v1/data-sources/${sourceId}/read`, {
          method: 'POST',
          headers: reader,
          json: { object: 'customers' },
        }),
        409,
        'conflict',
      );
    } finally {
      await guarded.close();
    }
  });
}
