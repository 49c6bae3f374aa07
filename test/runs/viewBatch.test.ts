import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun } from '../helpers/runs';
import { findRunView } from '../../domain/runs/find';
import { RunViewLoader } from '../../domain/runs/runViewLoader';

// domain/runs/runViewLoader.ts: concurrent GET /v1/runs/{id} share a statement, each caller still gets its
// own run, scoped to its own workspace.
describe('run views read in batches', () => {
  let h: Harness;
  const tenants: Array<{ workspaceId: string; auth: Record<string, string>; runs: string[] }> = [];
  let statements: string[] = [];
  const onQuery = (q: { sql: string }) => {
    if (/from runs r|join runs r/.test(q.sql)) statements.push(q.sql);
  };

  beforeAll(async () => {
    h = await startApi();
    for (let t = 0; t < 2; t++) {
      const owner = await signUp(h);
      await setPlan(h, owner.workspaceId, 'scale');
      const auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
      const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
      const runs: string[] = [];
      // no worker: the runs stay queued, their views are read all the same
      for (let i = 0; i < 3; i++) runs.push((await createRun(h, auth, { agentId: agent.id, input: { t, i } })).id);
      tenants.push({ workspaceId: owner.workspaceId, auth, runs });
    }
    h.orm.em.getConnection().getKnex().on('query', onQuery);
  }, 120_000);
  afterAll(async () => {
    h?.orm.em.getConnection().getKnex().off('query', onQuery);
    await h?.close();
  });
  beforeEach(() => {
    statements = [];
  });

  it('answers parallel GETs of two workspaces with fewer statements, each its own run, the other workspace 404', async () => {
    const [a, b] = tenants;
    const asks: Array<{ auth: Record<string, string>; id: string; own: boolean; input?: unknown }> = [];
    for (let round = 0; round < 5; round++) {
      a.runs.forEach((id, i) => asks.push({ auth: a.auth, id, own: true, input: { t: 0, i } }));
      b.runs.forEach((id, i) => asks.push({ auth: b.auth, id, own: true, input: { t: 1, i } }));
      asks.push({ auth: a.auth, id: b.runs[round % 3], own: false });
      asks.push({ auth: b.auth, id: a.runs[round % 3], own: false });
    }
    const responses = await Promise.all(asks.map((ask) => h.request(`/v1/runs/${ask.id}`, { headers: ask.auth })));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    asks.forEach((ask, i) => {
      if (ask.own) {
        expect(responses[i].status).toBe(200);
        expect(responses[i].headers.get('content-type')).toMatch(/^application\/json/);
        expect(bodies[i]).toMatchObject({ id: ask.id, status: 'queued', input: ask.input });
      } else {
        expect(responses[i].status).toBe(404);
        expect(bodies[i]).toMatchObject({ error: { code: 'not_found' } });
      }
    });
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.length).toBeLessThan(asks.length);
  });

  it('answers the reads of one turn with one statement, duplicates and other workspaces included', async () => {
    const [a, b] = tenants;
    const db = h.orm.em.getConnection();
    const asks = [
      [a.workspaceId, a.runs[0]],
      [b.workspaceId, b.runs[0]],
      [a.workspaceId, a.runs[0]],
      [a.workspaceId, b.runs[1]],
      [b.workspaceId, b.runs[2]],
    ];
    const settled = await Promise.allSettled(asks.map(([ws, id]) => findRunView(db, ws, id)));
    expect(statements).toHaveLength(1);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const views = settled.map((s) => (s.status === 'fulfilled' ? JSON.parse(s.value) : s.reason.code));
    expect(views[0].id).toBe(a.runs[0]);
    expect(views[1].id).toBe(b.runs[0]);
    expect(views[2]).toEqual(views[0]);
    expect(views[3]).toBe('not_found');
    expect(views[4].id).toBe(b.runs[2]);

    // past a batch's bound (64) a second statement; a lone read goes alone, at once
    statements = [];
    const many = await Promise.all(
      Array.from({ length: 100 }, (_, i) => findRunView(db, a.workspaceId, a.runs[i % 3])),
    );
    expect(many.map((v) => JSON.parse(v).id)).toEqual(Array.from({ length: 100 }, (_, i) => a.runs[i % 3]));
    expect(statements).toHaveLength(2);
    statements = [];
    expect(JSON.parse(await findRunView(db, b.workspaceId, b.runs[1])).id).toBe(b.runs[1]);
    expect(statements).toHaveLength(1);
  });

  it('gives every read in a batch exactly the view a lone read gets from its own statement', async () => {
    const db = h.orm.em.getConnection();
    const keys = tenants.flatMap((t) => t.runs.map((id) => [t.workspaceId, id] as const));
    const alone: string[] = [];
    for (const [ws, id] of keys) alone.push(await findRunView(db, ws, id));
    statements = [];
    const batched = await Promise.all(keys.map(([ws, id]) => findRunView(db, ws, id)));
    expect(statements).toHaveLength(1);
    expect(batched).toEqual(alone);
  });

  it('keeps an id PostgreSQL cannot read out of the batch: 404 for it, the others served', async () => {
    const [a] = tenants;
    const db = h.orm.em.getConnection();
    // the route's schema never lets one through; one caller's bad id must not fail the statement it shares
    const settled = await Promise.allSettled([
      findRunView(db, a.workspaceId, a.runs[0]),
      findRunView(db, a.workspaceId, 'not-a-uuid'),
    ]);
    expect(statements).toHaveLength(1);
    expect(settled[0].status).toBe('fulfilled');
    expect(JSON.parse((settled[0] as PromiseFulfilledResult<string>).value).id).toBe(a.runs[0]);
    expect((settled[1] as PromiseRejectedResult).reason.code).toBe('not_found');
  });

  it('fails every read of a failing statement with its error, then serves again', async () => {
    let fail = true;
    const loader = new RunViewLoader(
      h.orm.em.getConnection(),
      async (_db, keys) => {
        if (fail) throw Object.assign(new Error('connection lost'), { code: '57P01' });
        return new Map(keys.map((k, i) => [i, JSON.stringify({ id: k.id })]));
      },
      2,
    );
    const settled = await Promise.allSettled([loader.load('w', 'x'), loader.load('w', 'y')]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    for (const s of settled) expect((s as PromiseRejectedResult).reason.code).toBe('57P01');
    fail = false;
    expect(JSON.parse((await loader.load('w', 'z'))!).id).toBe('z');
  });
});
