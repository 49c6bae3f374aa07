import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, sessionCookie, setPlan, signUp, type Account } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { waitForFlowRun } from '../flows/helpers';
import { pollUntil } from '../helpers/poll';

// Idempotency-Key on every POST (docs/api/limits.md#idempotency), against the real service.
describe('Idempotency-Key on every POST', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let owner: Account;
  let auth: Record<string, string>;
  const covered = new Set<string>();

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
  }, 120_000);
  afterAll(() => stop?.());

  beforeEach(async () => {
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(
      await createKey(h, owner, [
        'agents:read',
        'agents:write',
        'runs:read',
        'runs:write',
        'feedback:write',
        'files:read',
        'files:write',
        'webhooks:manage',
        'keys:manage',
        'runner:run',
        'flows:read',
        'flows:manage',
        'phone:read',
        'phone:manage',
        'whatsapp:read',
        'whatsapp:manage',
      ]),
    );
  });

  /** Sends one POST with the key; records the route as covered. */
  const post = (route: string, path: string, key: string, json?: unknown, headers: Record<string, string> = auth) => {
    covered.add(route);
    return h.request(path, { method: 'POST', headers: { ...headers, 'Idempotency-Key': key }, json });
  };
  const list = async (path: string, plural: string) =>
    (await (await h.request(path, { headers: auth })).json())[plural] as Array<{ id: string }>;

  /** The same request twice under one key: one effect, the first answer twice (the second replayed). */
  async function twice(route: string, path: string, json?: unknown) {
    const key = randomUUID();
    const first = await post(route, path, key, json);
    const second = await post(route, path, key, json);
    const [a, b] = [await first.text(), await second.text()];
    const seen = (r: Response, text: string) => ({
      status: r.status,
      replayed: r.headers.get('idempotent-replayed'),
      text,
    });
    expect(seen(first, a)).toEqual({ status: first.status, replayed: null, text: a });
    expect(seen(second, b)).toEqual({ status: first.status, replayed: 'true', text: a });
    return { status: first.status, body: a ? JSON.parse(a) : null, key };
  }

  it('webhooks, agents, folders, files and local runs: one effect, the same answer twice', async () => {
    const hook = { url: 'http://127.0.0.1:9/h', events: ['run.failed'], secret: 's'.repeat(16) };
    expect((await twice('POST /v1/webhooks', '/v1/webhooks', hook)).status).toBe(201);
    expect(await list('/v1/webhooks', 'webhooks')).toHaveLength(1);

    expect((await twice('POST /v1/agents', '/v1/agents', { name: 'A', presetId: 'general-assistant' })).status).toBe(
      201,
    );
    const agents = await list('/v1/agents', 'agents');
    expect(agents).toHaveLength(1);

    expect((await twice('POST /v1/folders', '/v1/folders', { name: 'Docs' })).status).toBe(201);
    expect(await list('/v1/folders', 'folders')).toHaveLength(1);

    const key = randomUUID();
    covered.add('POST /v1/files');
    const upload = () =>
      h
        .request('/v1/files', {
          method: 'POST',
          headers: { ...auth, 'Idempotency-Key': key, 'content-type': 'text/plain', 'x-filename': 'a.txt' },
          body: 'hello',
        })
        .then(async (r) => ({ status: r.status, body: await r.text() }));
    const [u1, u2] = [await upload(), await upload()];
    expect(u1.status).toBe(201);
    expect(u2).toEqual(u1);
    expect(await list('/v1/files', 'files')).toHaveLength(1);

    const batch = {
      agentId: agents[0].id,
      runs: [
        {
          input: {},
          status: 'succeeded',
          output: {},
          startedAt: '2026-11-01T10:00:00Z',
          completedAt: '2026-11-01T10:00:01Z',
        },
      ],
    };
    expect((await twice('POST /v1/local-runs', '/v1/local-runs', batch)).status).toBe(201);
    expect(await list('/v1/runs', 'runs')).toHaveLength(1);
  });

  it('a different request under a used key is 409 conflict; another route or workspace has keys of its own', async () => {
    const key = randomUUID();
    expect((await post('POST /v1/folders', '/v1/folders', key, { name: 'One' })).status).toBe(201);
    const other = await post('POST /v1/folders', '/v1/folders', key, { name: 'Two' });
    expect(other.status).toBe(409);
    expect((await other.json()).error).toMatchObject({ code: 'conflict' });
    // the same key on another route acts
    expect((await post('POST /v1/agents', '/v1/agents', key, { name: 'A' })).status).toBe(201);
    // and in another workspace
    const stranger = await signUp(h);
    const theirs = bearer(await createKey(h, stranger, ['files:write']));
    expect((await post('POST /v1/folders', '/v1/folders', key, { name: 'Two' }, theirs)).status).toBe(201);
    expect(await list('/v1/folders', 'folders')).toHaveLength(1);
    // a malformed key is a validation error
    const bad = await post('POST /v1/folders', '/v1/folders', 'x'.repeat(256), { name: 'Three' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details.issues[0].path).toBe('Idempotency-Key');
  });

  it('a concurrent burst with one key has one effect', async () => {
    const key = randomUUID();
    const hook = { url: 'http://127.0.0.1:9/burst', events: ['run.failed'], secret: 's'.repeat(16) };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post('POST /v1/webhooks', '/v1/webhooks', key, hook)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    const ids = new Set(
      await Promise.all(
        answers.filter((r) => r.status === 201).map(async (r) => ((await r.json()) as { id: string }).id),
      ),
    );
    expect(ids.size).toBe(1);
    expect(await list('/v1/webhooks', 'webhooks')).toHaveLength(1);
  });

  it('an expired key (past 24 hours) acts again', async () => {
    const key = randomUUID();
    expect((await post('POST /v1/folders', '/v1/folders', key, { name: 'Old' })).status).toBe(201);
    await h.orm.em
      .fork()
      .execute(`update idempotency_keys set expires_at = now() - interval '1 second' where key = ?`, [key]);
    const again = await post('POST /v1/folders', '/v1/folders', key, { name: 'Old' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await list('/v1/folders', 'folders')).toHaveLength(2);
    // and run creation, whose key lives on the run, lets an old run's key go too
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const runKey = randomUUID();
    const first = await post('POST /v1/runs', '/v1/runs', runKey, { agentId: agent.id });
    expect(first.status).toBe(201);
    const replay = await post('POST /v1/runs', '/v1/runs', runKey, { agentId: agent.id });
    expect(replay.status).toBe(200);
    const run = await first.json();
    await h.orm.em.fork().execute(`update runs set created_at = now() - interval '25 hours' where id = ?`, [run.id]);
    const fresh = await post('POST /v1/runs', '/v1/runs', runKey, { agentId: agent.id });
    expect(fresh.status).toBe(201);
    expect((await fresh.json()).id).not.toBe(run.id);
  });

  it("a key whose first request still runs is 409 in_progress with Retry-After; a dead process's claim is taken over", async () => {
    const key = randomUUID();
    expect((await post('POST /v1/folders', '/v1/folders', key, { name: 'Held' })).status).toBe(201);
    const em = h.orm.em.fork();
    // as if the first request still ran, its claim renewed just now: a repeat waits for it, then is told to retry
    await em.execute(
      `update idempotency_keys set state = 'running', response_status = null, response_body = null, locked_at = now()
       where key = ?`,
      [key],
    );
    const busy = await post('POST /v1/folders', '/v1/folders', key, { name: 'Held' });
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect((await busy.json()).error).toMatchObject({ code: 'conflict', details: { reason: 'in_progress' } });
    // as if its process had died: the claim not renewed for over 30 s is the next repeat's
    await em.execute(`update idempotency_keys set locked_at = now() - interval '31 seconds' where key = ?`, [key]);
    const taken = await post('POST /v1/folders', '/v1/folders', key, { name: 'Held' });
    expect(taken.status).toBe(201);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a running request renews its claim for as long as it runs (a slow upload), so no repeat takes it over', async () => {
    const key = randomUUID();
    covered.add('POST /v1/files');
    // when the key's running claim was last renewed (epoch seconds), or undefined while none
    const lockedAt = async () =>
      (
        await h.orm.em
          .fork()
          .execute<Array<{ at: number }>>(
            `select extract(epoch from locked_at)::float as at from idempotency_keys where key = ? and state = 'running'`,
            [key],
          )
      )[0]?.at;
    // the upload's body arrives in two halves, 12 s apart
    const url = new URL('/v1/files', h.url);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          headers: {
            ...auth,
            'idempotency-key': key,
            'content-type': 'text/plain',
            'x-filename': 'slow.txt',
            'content-length': '10',
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('hello');
      setTimeout(() => req.end('world'), 12_000);
    });
    const claimed = await pollUntil(5_000, lockedAt, (at) => at !== undefined, 'the upload claiming its key', 200);
    // renewed while the upload still runs (its second half comes at 12 s; a renewal is due at 10 s)
    const renewed = await pollUntil(
      11_500,
      lockedAt,
      (at) => at !== undefined && at > claimed!,
      'the claim renewed while the upload runs',
      200,
    );
    expect(renewed! - claimed!).toBeGreaterThanOrEqual(9);
    const done = await answer;
    expect(done.status).toBe(201);
    expect(JSON.parse(done.body)).toMatchObject({ filename: 'slow.txt', size: 10 });
  }, 60_000);

  it('gate answers, cancel and feedback act once: a repeat replays instead of answering the next gate', async () => {
    const scripted = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, {
      agentId: scripted.id,
      input: { script: [{ ask: 'one?' }, { ask: 'two?' }, { final: { ok: true } }] },
    });
    await waitForStatus(h, auth, run.id, 'needs_input');
    const answer = await twice('POST /v1/runs/:id/input', `/v1/runs/${run.id}/input`, { answer: 'first' });
    expect(answer.status).toBe(202);
    // without the key the repeat would have answered "two?"
    const second = await waitForStatus(
      h,
      auth,
      run.id,
      (r) => r.status === 'needs_input' && r.pendingAction?.question === 'two?',
    );
    expect(second.pendingAction.question).toBe('two?');
    expect(
      (await post('POST /v1/runs/:id/input', `/v1/runs/${run.id}/input`, randomUUID(), { answer: 'b' })).status,
    ).toBe(202);
    await waitForStatus(h, auth, run.id, 'succeeded');
    expect((await twice('POST /v1/runs/:id/feedback', `/v1/runs/${run.id}/feedback`, { rating: 4 })).status).toBe(201);
    const [{ n }] = await h.orm.em
      .fork()
      .execute<Array<{ n: string }>>('select count(*) as n from feedback where run_id = ?', [run.id]);
    expect(Number(n)).toBe(1);

    const gated = await createAgent(h, auth, {
      presetId: 'scripted',
      settings: { approval: 'before_output', review: true },
    });
    const approving = await createRun(h, auth, { agentId: gated.id, input: { script: [{ final: { draft: 1 } }] } });
    await waitForStatus(h, auth, approving.id, 'needs_approval');
    expect(
      (await twice('POST /v1/runs/:id/approve', `/v1/runs/${approving.id}/approve`, { approved: true })).status,
    ).toBe(202);
    await waitForStatus(h, auth, approving.id, 'needs_review');
    expect((await twice('POST /v1/runs/:id/review', `/v1/runs/${approving.id}/review`, { accept: true })).status).toBe(
      202,
    );
    expect((await waitForStatus(h, auth, approving.id, 'succeeded')).output).toEqual({ draft: 1 });

    const waiting = await createRun(h, auth, { agentId: scripted.id, input: { script: [{ ask: 'q?' }] } });
    await waitForStatus(h, auth, waiting.id, 'needs_input');
    // a second cancel without the key is 409 (terminal); with it, the first answer again
    expect((await twice('POST /v1/runs/:id/cancel', `/v1/runs/${waiting.id}/cancel`)).status).toBe(202);
    await waitForStatus(h, auth, waiting.id, 'cancelled');
  });

  it('a repeated key creation cannot show the plaintext again: 409 naming the key it made, and one key', async () => {
    const key = randomUUID();
    const before = (await list('/v1/api-keys', 'apiKeys')).length;
    const first = await post('POST /v1/api-keys', '/v1/api-keys', key, { name: 'ci', scopes: ['runs:read'] });
    expect(first.status).toBe(201);
    const created = await first.json();
    const again = await post('POST /v1/api-keys', '/v1/api-keys', key, { name: 'ci', scopes: ['runs:read'] });
    expect(again.status).toBe(409);
    const text = await again.text();
    expect(text).not.toContain(created.key);
    expect(JSON.parse(text).error).toMatchObject({ code: 'conflict', details: { id: created.id } });
    expect(await list('/v1/api-keys', 'apiKeys')).toHaveLength(before + 1);
  });

  it('projects, price lists, rules, knowledge and version restores: one effect, the same answer twice', async () => {
    expect((await twice('POST /v1/projects', '/v1/projects', { name: 'P' })).status).toBe(201);
    expect(await list('/v1/projects', 'projects')).toHaveLength(1);
    const priceList = await twice('POST /v1/price-lists', '/v1/price-lists', { name: 'Retail' });
    expect(priceList.status).toBe(201);
    expect(await list('/v1/price-lists', 'priceLists')).toHaveLength(1);
    const rulesPath = `/v1/price-lists/${priceList.body.id}/rules`;
    expect((await twice('POST /v1/price-lists/:id/rules', rulesPath, { markupPercent: 20, priority: 1 })).status).toBe(
      201,
    );
    expect(await list(rulesPath, 'rules')).toHaveLength(1);
    expect((await twice('POST /v1/knowledge', '/v1/knowledge', { title: 'T', text: 'hello world' })).status).toBe(201);
    expect(await list('/v1/knowledge', 'knowledge')).toHaveLength(1);
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const restore = `/v1/agents/${agent.id}/versions/1/restore`;
    expect((await twice('POST /v1/agents/:id/versions/:n/restore', restore)).status).toBe(201);
    expect(await list(`/v1/agents/${agent.id}/versions`, 'versions')).toHaveLength(2);
  });

  it('evals, eval runs and proposals: one effect, the same answer twice', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const evalBody = { name: 'e', cases: [{ input: {}, expected: null, scorer: 'exact' }] };
    const created = await twice('POST /v1/agents/:id/evals', `/v1/agents/${agent.id}/evals`, evalBody);
    expect(created.status).toBe(201);
    expect(await list(`/v1/agents/${agent.id}/evals`, 'evals')).toHaveLength(1);
    expect((await twice('POST /v1/evals/:id/runs', `/v1/evals/${created.body.id}/runs`, {})).status).toBe(202);
    expect(await list(`/v1/evals/${created.body.id}/runs`, 'evalRuns')).toHaveLength(1);

    const proposals = `/v1/agents/${agent.id}/proposals`;
    const change = (instructions: string) => ({ changes: { instructions }, rationale: 'r' });
    const a = await twice('POST /v1/agents/:id/proposals', proposals, change('A'));
    expect(a.status).toBe(201);
    expect(await list(proposals, 'proposals')).toHaveLength(1);
    expect((await twice('POST /v1/proposals/:id/accept', `/v1/proposals/${a.body.id}/accept`)).status).toBe(201);
    expect(await list(`/v1/agents/${agent.id}/versions`, 'versions')).toHaveLength(2);
    const b = await (await h.request(proposals, { method: 'POST', headers: auth, json: change('B') })).json();
    expect((await twice('POST /v1/proposals/:id/reject', `/v1/proposals/${b.id}/reject`)).status).toBe(200);
  });

  it('output connections replay; a repeated share cannot show its token again (409) and keeps the first link', async () => {
    const conn = { name: 'Sink', type: 'http', url: 'http://127.0.0.1:9/out', secret: 's'.repeat(16) };
    const created = await twice('POST /v1/output-connections', '/v1/output-connections', conn);
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('secret');
    expect(await list('/v1/output-connections', 'outputConnections')).toHaveLength(1);

    const echo = await createAgent(h, auth, { presetId: 'general-assistant' });
    const run = await createRun(h, auth, { agentId: echo.id });
    const key = randomUUID();
    const first = await post('POST /v1/runs/:id/share', `/v1/runs/${run.id}/share`, key);
    expect(first.status).toBe(201);
    const { token } = await first.json();
    const again = await post('POST /v1/runs/:id/share', `/v1/runs/${run.id}/share`, key);
    expect(again.status).toBe(409);
    expect(await again.text()).not.toContain(token);
    expect((await h.request(`/shared/runs/${token}`)).status).toBe(200);
  });

  it('apps, publish, pause and domains: one effect, the same answer twice', async () => {
    const key = bearer(await createKey(h, owner, ['apps:manage', 'agents:write']));
    const agent = await createAgent(h, key, {});
    const body = { templateId: 'summarizer', slug: `idem-${randomUUID().slice(0, 8)}`, agentId: agent.id };
    const sent = async (route: string, path: string, json?: unknown) => {
      const k = randomUUID();
      const first = await post(route, path, k, json, key);
      const second = await post(route, path, k, json, key);
      const [a, b] = [await first.text(), await second.text()];
      expect({ status: second.status, replayed: second.headers.get('idempotent-replayed'), b }).toEqual({
        status: first.status,
        replayed: 'true',
        b: a,
      });
      return { status: first.status, body: a ? JSON.parse(a) : null };
    };
    const app = await sent('POST /v1/apps', '/v1/apps', body);
    expect(app.status).toBe(201);
    expect((await (await h.request('/v1/apps', { headers: key })).json()).apps).toHaveLength(1);
    expect((await sent('POST /v1/apps/:id/publish', `/v1/apps/${app.body.id}/publish`)).status).toBe(200);
    expect((await sent('POST /v1/apps/:id/pause', `/v1/apps/${app.body.id}/pause`)).status).toBe(200);
    const hostname = `idem-${randomUUID().slice(0, 8)}.example.org`;
    const domain = await sent('POST /v1/apps/:id/domains', `/v1/apps/${app.body.id}/domains`, { hostname });
    expect(domain.status).toBe(201);
    const verify = `/v1/apps/${app.body.id}/domains/${hostname}/verify`;
    expect((await sent('POST /v1/apps/:id/domains/:hostname/verify', verify)).status).toBe(200);
  });

  it('redeliver acts once per key', async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 503;
      res.end();
    });
    try {
      const echo = await createAgent(h, auth, { presetId: 'general-assistant' });
      const sub = await (
        await h.request('/v1/webhooks', {
          method: 'POST',
          headers: auth,
          json: { url: rx.url, events: ['run.succeeded'], secret: 's'.repeat(16) },
        })
      ).json();
      await createRun(h, auth, { agentId: echo.id });
      await pollUntil(30_000, () => rx.received.length === 3, Boolean, '3 attempts');
      type Delivery = { id: string; status: string; attempts: unknown[] };
      const latest = async () => ((await list(`/v1/webhooks/${sub.id}/deliveries`, 'deliveries')) as Delivery[])[0];
      const delivery = await pollUntil(20_000, latest, (d) => d?.status === 'failed', 'the failed delivery');
      expect(delivery?.status).toBe('failed');
      const path = `/v1/webhooks/${sub.id}/deliveries/${delivery!.id}/redeliver`;
      expect((await twice('POST /v1/webhooks/:id/deliveries/:deliveryId/redeliver', path)).status).toBe(202);
      await pollUntil(30_000, () => rx.received.length === 6, Boolean, '3 more attempts');
      // the one round it started is over (failed again after its 3 attempts): nothing more can come
      await pollUntil(20_000, latest, (d) => d?.status === 'failed' && d.attempts.length === 6, 'the round to end');
      expect(rx.received).toHaveLength(6);
    } finally {
      await rx.close();
    }
  });

  it('output redeliver acts once per key', async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 204;
      res.end();
    });
    try {
      const connection = { name: 'sink', type: 'http', url: rx.url, secret: 's'.repeat(16) };
      const conn = await (
        await h.request('/v1/output-connections', { method: 'POST', headers: auth, json: connection })
      ).json();
      const saver = await createAgent(h, auth, { presetId: 'scripted', settings: { saveOutput: [conn.id] } });
      await createRun(h, auth, { agentId: saver.id, input: { script: [{ final: 'done' }] } });
      type Delivery = { id: string; status: string; attempts: unknown[] };
      const latest = async () =>
        ((await list(`/v1/output-connections/${conn.id}/deliveries`, 'deliveries')) as Delivery[])[0];
      const delivery = await pollUntil(20_000, latest, (d) => d?.status === 'succeeded', 'the delivery');
      expect(delivery?.status).toBe('succeeded');
      const path = `/v1/output-connections/${conn.id}/deliveries/${delivery!.id}/redeliver`;
      expect((await twice('POST /v1/output-connections/:id/deliveries/:deliveryId/redeliver', path)).status).toBe(202);
      await pollUntil(30_000, () => rx.received.length === 2, Boolean, 'the redelivery');
      // the one round it started is over: nothing more can come
      await pollUntil(20_000, latest, (d) => d?.status === 'succeeded' && d.attempts.length === 2, 'the round to end');
      expect(rx.received).toHaveLength(2);
    } finally {
      await rx.close();
    }
  });

  it('finance imports, categories and rules: one effect, the same answer twice', async () => {
    const finance = bearer(await createKey(h, owner, ['finance:read', 'finance:write', 'files:write']));
    const send = (route: string, path: string, key: string, json?: unknown) =>
      post(route, path, key, json, finance).then(async (r) => ({ status: r.status, body: await r.text() }));
    const again = async (route: string, path: string, json?: unknown) => {
      const key = randomUUID();
      const first = await send(route, path, key, json);
      expect(await send(route, path, key, json)).toEqual(first);
      return { status: first.status, body: first.body ? JSON.parse(first.body) : null };
    };
    const all = async (path: string, plural: string) =>
      (await (await h.request(path, { headers: finance })).json())[plural] as unknown[];
    const file = await h.request('/v1/files', {
      method: 'POST',
      headers: { ...finance, 'content-type': 'text/csv', 'x-filename': 'bank.csv' },
      body: 'date,description,amount\n2026-10-01,Rent,-1200.00\n',
    });
    const mapping = { date: 'date', description: 'description', amount: 'amount' };
    const imported = await again('POST /v1/finance/imports', '/v1/finance/imports', {
      fileId: ((await file.json()) as { id: string }).id,
      format: 'csv',
      mapping,
    });
    expect(imported.status).toBe(201);
    expect(await all('/v1/finance/imports', 'imports')).toHaveLength(1);
    const category = await again('POST /v1/finance/categories', '/v1/finance/categories', {
      name: 'Housing',
      kind: 'expense',
    });
    expect(category.status).toBe(201);
    const rule = { match: { descriptionContains: 'rent' }, categoryId: category.body.id, priority: 1 };
    expect((await again('POST /v1/finance/rules', '/v1/finance/rules', rule)).status).toBe(201);
    expect(await all('/v1/finance/rules', 'rules')).toHaveLength(1);
    const applied = await again('POST /v1/finance/rules/apply', '/v1/finance/rules/apply', {});
    expect(applied).toEqual({ status: 200, body: { examined: 1, updated: 1 } });
    const range = { from: '2026-10-01', to: '2026-10-31' };
    const report = await again('POST /v1/finance/reports', '/v1/finance/reports', { ...range, kind: 'monthly' });
    expect(report.status).toBe(201);
    const reconciliation = await again('POST /v1/finance/reconciliations', '/v1/finance/reconciliations', {
      ...range,
      fileIds: [imported.body.fileId],
    });
    expect(reconciliation.status).toBe(201);
    const runs = await h.request('/v1/runs?limit=100', { headers: auth });
    expect(((await runs.json()) as { runs: unknown[] }).runs).toHaveLength(2);
  });

  it('data sources and saved tables: one effect, the same answer twice', async () => {
    const sources = bearer(await createKey(h, owner, ['data_sources:read', 'data_sources:manage']));
    const send = (route: string, path: string, key: string, json?: unknown) =>
      post(route, path, key, json, sources).then(async (r) => ({ status: r.status, body: await r.text() }));
    const again = async (route: string, path: string, json?: unknown) => {
      const key = randomUUID();
      const first = await send(route, path, key, json);
      expect(await send(route, path, key, json)).toEqual(first);
      return { status: first.status, body: first.body ? JSON.parse(first.body) : null };
    };
    const source = await again('POST /v1/data-sources', '/v1/data-sources', { name: 'Sheets', type: 'file' });
    expect(source.status).toBe(201);
    const all = async (path: string, plural: string) =>
      (await (await h.request(path, { headers: sources })).json())[plural] as unknown[];
    expect(await all('/v1/data-sources', 'dataSources')).toHaveLength(1);

    const key = randomUUID();
    covered.add('POST /v1/data-sources/:id/files');
    const upload = () =>
      h
        .request(`/v1/data-sources/${source.body.id}/files`, {
          method: 'POST',
          headers: { ...sources, 'Idempotency-Key': key, 'content-type': 'text/csv', 'x-filename': 'p.csv' },
          body: 'name\nAda\n',
        })
        .then(async (r) => ({ status: r.status, body: await r.text() }));
    const [u1, u2] = [await upload(), await upload()];
    expect(u1.status).toBe(201);
    expect(u2).toEqual(u1);

    const base = `/v1/data-sources/${source.body.id}`;
    expect((await again('POST /v1/data-sources/:id/test', `${base}/test`)).status).toBe(200);
    expect((await again('POST /v1/data-sources/:id/read', `${base}/read`, { object: 'p' })).status).toBe(200);
    const table = await again('POST /v1/saved-tables', '/v1/saved-tables', {
      name: 'T',
      dataSourceId: source.body.id,
      read: { object: 'p' },
    });
    expect(table.status).toBe(201);
    expect(await all('/v1/saved-tables', 'savedTables')).toHaveLength(1);
    const refresh = await again('POST /v1/saved-tables/:id/refresh', `/v1/saved-tables/${table.body.id}/refresh`);
    expect(refresh.status).toBe(202);
  });

  it('session routes: sign-up and sign-in (no workspace yet) ignore the key; sign-out ends what it needs', async () => {
    const key = randomUUID();
    const email = `idem-${randomUUID()}@example.com`;
    const body = { email, password: 'pw-0123456789' };
    const up1 = await post('POST /v1/console/auth/sign-up', '/v1/console/auth/sign-up', key, body, {});
    const up2 = await post('POST /v1/console/auth/sign-up', '/v1/console/auth/sign-up', key, body, {});
    expect([up1.status, up2.status]).toEqual([201, 409]); // one account
    const in1 = await post('POST /v1/console/auth/sign-in', '/v1/console/auth/sign-in', key, body, {});
    expect(in1.status).toBe(200);
    // a repeated sign-out finds its session gone: 401, and nothing more happens
    const cookie = { cookie: sessionCookie(in1) };
    const out1 = await post('POST /v1/console/auth/sign-out', '/v1/console/auth/sign-out', key, undefined, cookie);
    const out2 = await post('POST /v1/console/auth/sign-out', '/v1/console/auth/sign-out', key, undefined, cookie);
    expect([out1.status, out2.status]).toEqual([204, 401]);
    covered.add('POST /v1/console/auth/verify-email'); // public, token-bound: a repeat verifies nothing more
  });

  it('flows: a create or token shows its webhook URL once (a repeat is 409); runs, approvals and cancels act once', async () => {
    const def = { name: 'f', trigger: { type: 'webhook' }, steps: [{ name: 'ok', type: 'approval', message: 'go?' }] };
    const key = randomUUID();
    const made = await post('POST /v1/flows', '/v1/flows', key, def);
    expect(made.status).toBe(201);
    const flow = await made.json();
    const again = await post('POST /v1/flows', '/v1/flows', key, def);
    expect(again.status).toBe(409);
    expect((await again.json()).error.details).toEqual({ id: flow.id });
    expect(await list('/v1/flows', 'flows')).toHaveLength(1);
    const tokenKey = randomUUID();
    expect(
      (await post('POST /v1/flows/:id/webhook-token', `/v1/flows/${flow.id}/webhook-token`, tokenKey)).status,
    ).toBe(200);
    expect(
      (await post('POST /v1/flows/:id/webhook-token', `/v1/flows/${flow.id}/webhook-token`, tokenKey)).status,
    ).toBe(409);

    const run = (await twice('POST /v1/flows/:id/run', `/v1/flows/${flow.id}/run`, { input: { a: 1 } })).body;
    expect(await list(`/v1/flows/${flow.id}/runs`, 'flowRuns')).toHaveLength(1);
    await waitForFlowRun(h, auth, run.id, 'waiting_approval');
    expect(
      (await twice('POST /v1/flow-runs/:id/approval', `/v1/flow-runs/${run.id}/approval`, { approved: true })).status,
    ).toBe(202);

    const second = await (
      await h.request(`/v1/flows/${flow.id}/run`, { method: 'POST', headers: auth, json: {} })
    ).json();
    expect((await twice('POST /v1/flow-runs/:id/cancel', `/v1/flow-runs/${second.id}/cancel`)).status).toBe(202);
    covered.add('POST /hooks/flows/:token'); // public, token-bound: no workspace to keep a key in, as sign-up
  });

  it('tutor sessions and copilots: a repeated message under its key is the same turn (its id is the key)', async () => {
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const session = await twice('POST /v1/tutor/sessions', '/v1/tutor/sessions', { agentId: agent.id, topic: 'T' });
    expect(session.status).toBe(201);
    const messages = `/v1/tutor/sessions/${session.body.id}/messages`;
    // The key is the message's id (route idempotency `own`): the repeat gets the first reply, marked duplicate.
    const key = randomUUID();
    const said = await (await post('POST /v1/tutor/sessions/:id/messages', messages, key, { text: 'hi' })).json();
    const again = await (await post('POST /v1/tutor/sessions/:id/messages', messages, key, { text: 'hi' })).json();
    expect(again).toEqual({ ...said, duplicate: true });
    const copilotKey = randomUUID();
    const path = `/v1/agents/${agent.id}/copilot`;
    const asked = await (await post('POST /v1/agents/:id/copilot', path, copilotKey, { message: 'hi' })).json();
    expect((await (await post('POST /v1/agents/:id/copilot', path, copilotKey, { message: 'hi' })).json()).runId).toBe(
      asked.runId,
    );
    const sources = bearer(await createKey(h, owner, ['data_sources:read', 'data_sources:manage']));
    const source = await (
      await h.request('/v1/data-sources', { method: 'POST', headers: sources, json: { name: 'S', type: 'file' } })
    ).json();
    const ask = () =>
      post(
        'POST /v1/data-sources/:id/copilot',
        `/v1/data-sources/${source.id}/copilot`,
        copilotKey,
        { question: 'q' },
        sources,
      );
    const q1 = await (await ask()).json();
    expect((await (await ask()).json()).runId).toBe(q1.runId);
    expect((await twice('POST /v1/tutor/sessions/:id/end', `/v1/tutor/sessions/${session.body.id}/end`)).status).toBe(
      200,
    );
  }, 60_000);

  it('phone: a number and a rotated secret show their secret once (a repeat is 409); an outbound call is placed once', async () => {
    const agent = (await twice('POST /v1/agents', '/v1/agents', { name: 'desk', presetId: 'phone-receptionist' })).body;
    // the phone agents route makes the same agents: one per key
    const phoneAgent = await twice('POST /v1/phone/agents', '/v1/phone/agents', {
      name: 'booking desk',
      presetId: 'phone-booking',
    });
    expect(phoneAgent.status).toBe(201);
    const body = {
      e164: `+1415${String(Date.now()).slice(-7)}`,
      provider: 'twilio',
      agentId: agent.id,
      credentials: { accountSid: 'AC1', authToken: 'token' },
    };
    const key = randomUUID();
    const made = await post('POST /v1/phone/numbers', '/v1/phone/numbers', key, body);
    expect(made.status).toBe(201);
    const number = await made.json();
    const again = await post('POST /v1/phone/numbers', '/v1/phone/numbers', key, body);
    expect(again.status).toBe(409);
    expect((await again.json()).error.details).toEqual({ id: number.id });
    const rotate = `/v1/phone/numbers/${number.id}/rotate-secret`;
    const rotateKey = randomUUID();
    expect((await post('POST /v1/phone/numbers/:id/rotate-secret', rotate, rotateKey)).status).toBe(200);
    expect((await post('POST /v1/phone/numbers/:id/rotate-secret', rotate, rotateKey)).status).toBe(409);
    const placed = await twice('POST /v1/phone/calls', '/v1/phone/calls', { numberId: number.id, to: '+14155550100' });
    expect(placed.status).toBe(201);
    expect(await list(`/v1/phone/calls?numberId=${number.id}`, 'calls')).toHaveLength(1);
    // public, signed by Twilio: deduplicated by its message ids; a status callback repeated changes nothing more
    covered.add('POST /hooks/phone/:numberId/:token');
    covered.add('POST /hooks/phone/:numberId/:token/status');
  });

  it('WhatsApp: an account is connected once; the webhook dedupes on the message id itself', async () => {
    const agent = await createAgent(h, auth, {});
    const body = { phoneNumberId: '15550001', accessToken: 't', appSecret: 'a', verifyToken: 'v', agentId: agent.id };
    const made = await twice('POST /v1/whatsapp/accounts', '/v1/whatsapp/accounts', body);
    expect(made.status).toBe(201);
    expect(await list('/v1/whatsapp/accounts', 'accounts')).toHaveLength(1);
    covered.add('POST /hooks/whatsapp/:accountId'); // public, signed: no workspace to keep a key in; message ids dedupe
    // a redelivery sends only a reply that failed: a repeat of a success is 409, of a failure one more attempt
    covered.add('POST /v1/whatsapp/conversations/:id/messages/:messageId/redeliver');
    // a published app's submission keeps its own key per app and client (test/apps/idempotency.test.ts)
    covered.add('POST /apps/:slug/runs');
    // a one-click approval link is its own single-use token, with no workspace caller to key on
    // (test/runs/approvalPolicies.test.ts)
    covered.add('POST /approvals/:token');
  });

  it('covers every POST route of the service (a new POST route needs a case here)', () => {
    const posts = h.routes.filter((r) => r.method === 'POST').map((r) => `POST ${r.path}`);
    expect([...covered].sort()).toEqual(posts.sort());
  });

  it('the OpenAPI document shows the header on every POST', async () => {
    const doc = await (await h.request('/v1/openapi.json')).json();
    for (const [path, ops] of Object.entries(
      doc.paths as Record<
        string,
        Record<string, { parameters?: Array<{ name: string; in: string }>; security?: unknown[] }>
      >,
    )) {
      if (!ops.post) continue;
      // a route without a credential has no workspace to keep a key in (sign-up, sign-in, e-mail
      // verification, the hooks and one-click links are bound to their own token), except a published app's
      // submission, which keeps its own key per app and client
      const ignored = (ops.post.security ?? [{}]).length === 0 && path !== '/apps/{slug}/runs';
      expect({
        path,
        header: ops.post.parameters?.some((p) => p.name === 'Idempotency-Key' && p.in === 'header'),
      }).toEqual({
        path,
        header: !ignored,
      });
    }
  });
});
