import { bearer, createKey, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { call, newAgent, newApp, type Headers } from './helpers';

// `Idempotency-Key` on a public submission (docs/api/apps.md#public-pages): the rules of POST /v1/runs, per app
// and per client. No worker serves this API's task queue, so the runs stay queued with their credit hold.
describe('public app submissions with an Idempotency-Key', () => {
  let h: Harness;
  let auth: Headers;
  let agentId: string;
  beforeAll(async () => {
    // one trusted proxy: X-Forwarded-For names the client, so a test can be two visitors
    h = await startApi({ appRatePerMin: 10_000, trustProxyHops: 1 });
    const owner = await signUp(h);
    auth = bearer(await createKey(h, owner, ['apps:manage', 'agents:write', 'runs:write']));
    agentId = await newAgent(h, auth);
  }, 60_000);
  afterAll(() => h.close());

  const sql = (query: string, params: unknown[] = []) => h.orm.em.fork().execute(query, params);
  const published = async () => {
    const app = await newApp(h, auth, agentId);
    await ok(call(h, 'POST', `/v1/apps/${app.id}/publish`, auth), 200);
    return app;
  };
  const submit = (slug: string, key: string, json: unknown, client = '203.0.113.7') =>
    h.request(`/apps/${slug}/runs`, {
      method: 'POST',
      headers: { 'Idempotency-Key': key, 'X-Forwarded-For': client },
      json,
    });
  /** The app's runs, and the credit holds taken for them (one per run charged). */
  const rowsOf = async (appId: string) => ({
    runs: Number((await sql(`select count(*) as n from runs where metadata->>'appId' = ?`, [appId]))[0].n),
    holds: Number(
      (
        await sql(
          `select count(*) as n from ledger_entries l join runs r on r.id = l.run_id
            where r.metadata->>'appId' = ? and l.kind = 'hold'`,
          [appId],
        )
      )[0].n,
    ),
  });

  it('answers the same run and token again for the same submission, 409 for another one', async () => {
    const app = await published();
    const first = await ok(submit(app.slug, 'key-1', { topic: 'tides' }), 201);
    const again = await ok(submit(app.slug, 'key-1', { topic: 'tides' }), 200);
    expect(again).toEqual(first);
    // the token answered again opens the status page
    const status = await ok(fetch(again.statusUrl, { headers: { accept: 'application/json' } }), 200);
    expect(status).toMatchObject({ runId: first.runId, status: 'queued' });
    await error(submit(app.slug, 'key-1', { topic: 'eclipses' }), 409, 'conflict');
    expect(await rowsOf(app.id)).toEqual({ runs: 1, holds: 1 });
    // without a key every submission is a run of its own
    await ok(h.request(`/apps/${app.slug}/runs`, { method: 'POST', json: { topic: 'tides' } }), 201);
    expect(await rowsOf(app.id)).toEqual({ runs: 2, holds: 2 });
  });

  it('keeps one key of two clients, or of two apps, apart', async () => {
    const app = await published();
    const other = await published();
    const mine = await ok(submit(app.slug, 'shared-key', { topic: 'tides' }, '203.0.113.7'), 201);
    const theirs = await ok(submit(app.slug, 'shared-key', { topic: 'tides' }, '198.51.100.9'), 201);
    expect(theirs.runId).not.toBe(mine.runId);
    expect(theirs.token).not.toBe(mine.token);
    const elsewhere = await ok(submit(other.slug, 'shared-key', { topic: 'tides' }, '203.0.113.7'), 201);
    expect(elsewhere.runId).not.toBe(mine.runId);
    expect(await rowsOf(app.id)).toEqual({ runs: 2, holds: 2 });
    expect(await rowsOf(other.id)).toEqual({ runs: 1, holds: 1 });
    // nor does a workspace's own POST /v1/runs key meet a visitor's
    const keyed = await ok(
      call(h, 'POST', '/v1/runs', { ...auth, 'Idempotency-Key': 'shared-key' }, { agentId, input: {} }),
      201,
    );
    expect([mine.runId, theirs.runId]).not.toContain(keyed.id);
  });

  it('makes one run and one charge of two parallel submissions under one key', async () => {
    const app = await published();
    const answers = await Promise.all([
      submit(app.slug, 'race', { topic: 'tides' }),
      submit(app.slug, 'race', { topic: 'tides' }),
    ]);
    const bodies = await Promise.all(answers.map((res) => res.json()));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 201]);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(await rowsOf(app.id)).toEqual({ runs: 1, holds: 1 });
  });

  it('refuses a malformed key before doing anything', async () => {
    const app = await published();
    await error(submit(app.slug, 'bad key', { topic: 'tides' }), 400, 'validation_error');
    expect(await rowsOf(app.id)).toEqual({ runs: 0, holds: 0 });
  });
});
