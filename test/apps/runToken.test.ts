import { bearer, createKey, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { call, newAgent, newApp, type Headers } from './helpers';

// A public submission's run and its token row (app_run_tokens) commit in one transaction
// (domain/apps/public.ts, domain/runs/create.ts): there is never a run its submitter cannot open or the
// app's usage does not count. No worker serves this API's task queue, so the runs stay as created.
describe('app run tokens', () => {
  let h: Harness;
  let auth: Headers;
  let agentId: string;
  beforeAll(async () => {
    h = await startApi({ appRatePerMin: 10_000 });
    const owner = await signUp(h);
    auth = bearer(await createKey(h, owner, ['apps:manage', 'agents:write', 'usage:read']));
    agentId = await newAgent(h, auth);
  }, 60_000);
  afterAll(() => h.close());

  const sql = (query: string, params: unknown[] = []) => h.orm.em.fork().execute(query, params);
  const published = async () => {
    const app = await newApp(h, auth, agentId);
    await ok(call(h, 'POST', `/v1/apps/${app.id}/publish`, auth), 200);
    return app;
  };
  const rowsOf = async (appId: string) => ({
    runs: Number((await sql(`select count(*) as n from runs where metadata->>'appId' = ?`, [appId]))[0].n),
    tokens: Number((await sql('select count(*) as n from app_run_tokens where app_id = ?', [appId]))[0].n),
  });

  it('writes the run and its token in the same transaction', async () => {
    const app = await published();
    const started = await ok(h.request(`/apps/${app.slug}/runs`, { method: 'POST', json: { topic: 'tides' } }), 201);
    // xmin is the transaction that inserted a row (runs' row is read before anything updates it: no worker)
    const [row] = await sql(
      `select r.xmin::text as run_tx, t.xmin::text as token_tx
         from runs r join app_run_tokens t on t.run_id = r.id where r.id = ?`,
      [started.runId],
    );
    expect(row).toBeDefined();
    expect(row.token_tx).toBe(row.run_tx);
    expect(await rowsOf(app.id)).toEqual({ runs: 1, tokens: 1 });
  });

  it('leaves neither the run nor its token when the token cannot be saved', async () => {
    const app = await published();
    // A real failure of the token's insert, for this app only (other tests share the database).
    const fn = `refuse_token_${app.id.replace(/-/g, '')}`;
    await sql(
      `create function ${fn}() returns trigger language plpgsql as $$
       begin raise exception 'token refused'; end $$`,
    );
    await sql(
      `create trigger ${fn} before insert on app_run_tokens for each row
       when (new.app_id = '${app.id}') execute function ${fn}()`,
    );
    try {
      const res = await h.request(`/apps/${app.slug}/runs`, { method: 'POST', json: { topic: 'tides' } });
      expect(res.status).toBe(500);
      expect((await res.json()).error).toMatchObject({ code: 'internal_error' });
      expect(await rowsOf(app.id)).toEqual({ runs: 0, tokens: 0 });
      const today = new Date().toISOString().slice(0, 10);
      const usage = await ok(call(h, 'GET', `/v1/apps/${app.id}/usage?from=${today}&to=${today}`, auth), 200);
      expect(usage).toMatchObject({ runs: 0 });
    } finally {
      await sql(`drop trigger ${fn} on app_run_tokens`);
      await sql(`drop function ${fn}()`);
    }
    // once the token can be saved again, a submission makes both
    await ok(h.request(`/apps/${app.slug}/runs`, { method: 'POST', json: { topic: 'tides' } }), 201);
    expect(await rowsOf(app.id)).toEqual({ runs: 1, tokens: 1 });
  });
});
