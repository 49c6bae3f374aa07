import { attemptOutputDelivery, recordOutputDelivery } from '../../domain/outputs/delivery';
import type { Scope } from '../../domain/identity/scopes';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { pollUntil } from '../helpers/poll';
import { error, ok } from '../helpers/responses';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { samplePostgres } from '../helpers/sampleSources';
import { startRunStack } from '../helpers/worker';
import { createSecretBox } from '../../platform/secrets';

type Headers = Record<string, string>;

// Saved table connections (docs/api/output-connections.md#saved-table-connections): outputs appended as rows.
describe('saved table output connections', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let other: Headers;
  let workspaceId: string;
  let sourceId: string;

  beforeAll(async () => {
    const db = await samplePostgres();
    ({ h, stop } = await startRunStack({ allowPrivateEgress: true }));
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    const scopes: Scope[] = [
      'webhooks:manage',
      'data_sources:read',
      'data_sources:manage',
      'agents:write',
      'runs:read',
      'runs:write',
      'runner:run',
    ];
    auth = bearer(await createKey(h, owner, scopes));
    const stranger = await signUp(h);
    await setPlan(h, stranger.workspaceId, 'scale');
    other = bearer(await createKey(h, stranger, scopes));
    const source = { name: 'Sample', type: 'postgres', config: db };
    sourceId = (await ok(h.request('/v1/data-sources', { method: 'POST', headers: auth, json: source }), 201)).id;
  }, 120_000);
  afterAll(() => stop?.());

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  async function savedTable(): Promise<string> {
    const read = { object: 'customers', columns: ['id', 'name'], orderBy: [{ column: 'id' }], limit: 2 };
    const t = await ok(
      call('POST', '/v1/saved-tables', auth, { name: 'Customers', dataSourceId: sourceId, read }),
      201,
    );
    await pollUntil(
      30_000,
      () => ok(call('GET', `/v1/saved-tables/${t.id}`, auth), 200),
      (got) => got.status === 'ok',
      'the saved table refreshed',
    );
    return t.id;
  }
  const rows = async (id: string) => (await ok(call('GET', `/v1/saved-tables/${id}/rows?limit=100`, auth), 200)).rows;
  const deliveries = async (id: string) =>
    (await ok(call('GET', `/v1/output-connections/${id}/deliveries`, auth), 200)).deliveries;
  const settled = (id: string, count = 1) =>
    pollUntil(
      30_000,
      () => deliveries(id),
      (log) => log.length >= count && log.every((d: { status: string }) => d.status !== 'pending'),
      'the deliveries to settle',
    );

  it('creates a connection only for a saved table of the workspace (400 at savedTableId otherwise)', async () => {
    const tableId = await savedTable();
    const conn = await ok(
      call('POST', '/v1/output-connections', auth, { name: ' Log ', type: 'saved_table', savedTableId: tableId }),
      201,
    );
    expect(conn).toMatchObject({ name: 'Log', type: 'saved_table', url: null, savedTableId: tableId });
    const foreign = await error(
      call('POST', '/v1/output-connections', other, { name: 'x', type: 'saved_table', savedTableId: tableId }),
      400,
      'validation_error',
    );
    expect(foreign.details.issues).toEqual([expect.objectContaining({ path: 'savedTableId' })]);
  });

  it('a succeeded run appends its output as one row, logged; a retried attempt appends nothing more', async () => {
    const tableId = await savedTable();
    const conn = await ok(
      call('POST', '/v1/output-connections', auth, { name: 'log', type: 'saved_table', savedTableId: tableId }),
      201,
    );
    const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { saveOutput: [conn.id] } });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ final: { id: 99, name: 'Out' } }] },
    });
    await waitForStatus(h, auth, run.id, 'succeeded');
    const [log] = await settled(conn.id);
    expect(log).toMatchObject({ runId: run.id, flowRunId: null, status: 'succeeded' });
    expect(log.attempts).toEqual([{ at: expect.any(String), statusCode: null, error: null }]);
    expect(await rows(tableId)).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
      { id: 99, name: 'Out' },
    ]);
    expect((await ok(call('GET', `/v1/saved-tables/${tableId}`, auth), 200)).rowCount).toBe(3);
    // Its row is in the table already: a redelivery is refused and appends nothing.
    const redeliver = `/v1/output-connections/${conn.id}/deliveries/${log.id}/redeliver`;
    expect((await error(call('POST', redeliver, auth), 409, 'conflict')).details).toEqual({ status: 'succeeded' });
    expect((await ok(call('GET', `/v1/saved-tables/${tableId}`, auth), 200)).rowCount).toBe(3);

    // A retried activity: the same source key records the same delivery, and attempting it again appends nothing.
    const em = h.orm.em.fork();
    expect(await recordOutputDelivery(em, workspaceId, conn.id, { id: 99 }, { runId: run.id })).toBe(log.id);
    expect(
      await attemptOutputDelivery(em, log.id, 2, { allowPrivate: true, box: createSecretBox(h.config.secretKeys) }),
    ).toEqual({ outcome: 'delivered' });

    // Two attempts of one fresh delivery at the same time append one row; a non-object output is `{ output }`.
    const fresh = await recordOutputDelivery(em, workspaceId, conn.id, 'plain text', { key: 'test:concurrent' });
    const both = await Promise.all(
      [1, 2].map((n) =>
        attemptOutputDelivery(h.orm.em.fork(), fresh, n, {
          allowPrivate: true,
          box: createSecretBox(h.config.secretKeys),
        }),
      ),
    );
    expect(both).toEqual([{ outcome: 'delivered' }, { outcome: 'delivered' }]);
    expect(await rows(tableId)).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
      { id: 99, name: 'Out' },
      { output: 'plain text' },
    ]);
    expect((await deliveries(conn.id)).find((d: { id: string }) => d.id === fresh).attempts).toHaveLength(1);

    // A refresh replaces appended rows with the source's (documented).
    await ok(call('POST', `/v1/saved-tables/${tableId}/refresh`, auth), 202);
    await pollUntil(
      30_000,
      () => rows(tableId),
      (r) => r.length === 2,
      'the refreshed rows',
    );
    expect(await rows(tableId)).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
    ]);
  });

  it('a deleted saved table fails the delivery at once, with no retry', async () => {
    const tableId = await savedTable();
    const conn = await ok(
      call('POST', '/v1/output-connections', auth, { name: 'gone', type: 'saved_table', savedTableId: tableId }),
      201,
    );
    const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { saveOutput: [conn.id] } });
    expect((await call('DELETE', `/v1/saved-tables/${tableId}`, auth)).status).toBe(204);
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { a: 1 } }] } });
    await waitForStatus(h, auth, run.id, 'succeeded');
    const [log] = await settled(conn.id);
    expect(log).toMatchObject({ runId: run.id, status: 'failed' });
    // `failed` is written after the last attempt: the attempts listed now are all there will be
    const [again] = await deliveries(conn.id);
    expect(again.attempts).toEqual([{ at: expect.any(String), statusCode: null, error: 'saved table deleted' }]);
    expect((await call('GET', `/v1/saved-tables/${tableId}/rows`, auth)).status).toBe(404);
  });
});
