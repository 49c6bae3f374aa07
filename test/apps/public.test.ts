import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { bearer, createKey, freshRateWindow, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { startRunStack } from '../helpers/worker';
import { call, newAgent, newApp, type Headers } from './helpers';
import { pollUntil } from '../helpers/poll';

/** Polls the public status route (JSON) until the run is finished. */
async function waitDone(h: Harness, statusUrl: string): Promise<any> {
  return pollUntil(
    30_000,
    () => ok(fetch(statusUrl, { headers: { accept: 'application/json' } }), 200),
    (body) => ['succeeded', 'failed', 'cancelled'].includes(body.status),
    'the run to finish',
  );
}

// Published apps' public face: form, runs, status pages (docs/api/apps.md#public-pages).
describe('public app pages', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let agentId: string;
  beforeAll(async () => {
    const stack = await startRunStack({ appRatePerMin: 10_000 });
    h = stack.h;
    stop = stack.stop;
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['apps:manage', 'agents:write', 'runs:read', 'usage:read']));
    agentId = await newAgent(h, auth);
  }, 120_000);
  afterAll(() => stop());

  const published = async (extra: Record<string, unknown> = {}) => {
    const app = await newApp(h, auth, agentId, extra);
    await ok(call(h, 'POST', `/v1/apps/${app.id}/publish`, auth), 200);
    return app;
  };

  it('serves an accessible HTML form for a published app only, escaping what the workspace wrote', async () => {
    const app = await newApp(h, auth, agentId, {
      name: '<script>alert(1)</script> & co',
      description: 'Say "hi" <b>now</b>',
      form: {
        fields: [
          { name: 'topic', label: 'Topic <i>', type: 'text', required: true },
          { name: 'notes', label: 'Notes', type: 'textarea', required: false },
          { name: 'count', label: 'Count', type: 'number', required: false },
          { name: 'tone', label: 'Tone', type: 'select', required: true, options: ['a"b', 'c'] },
        ],
      },
    });
    const draft = await h.request(`/apps/${app.slug}`);
    expect(draft.status).toBe(404);
    expect(draft.headers.get('x-request-id')).toBeTruthy();
    expect((await draft.json()).error).toMatchObject({ code: 'not_found', requestId: expect.any(String) });

    await ok(call(h, 'POST', `/v1/apps/${app.id}/publish`, auth), 200);
    const res = await h.request(`/apps/${app.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const page = await res.text();
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; co');
    expect(page).toContain('Say &quot;hi&quot; &lt;b&gt;now&lt;/b&gt;');
    expect(page).toContain('<label for="field-topic">Topic &lt;i&gt;');
    expect(page).toContain('<option value="a&quot;b">a&quot;b</option>');
    expect(page).toMatch(/<form method="post" action="\/apps\/[a-z0-9-]+\/runs">/);
    expect(page).not.toContain(agentId);
    expect(page).not.toContain(app.id);

    await ok(call(h, 'POST', `/v1/apps/${app.id}/pause`, auth), 200);
    await error(h.request(`/apps/${app.slug}`), 404, 'not_found');
    await error(h.request(`/apps/no-such-app-${randomUUID().slice(0, 6)}`), 404, 'not_found');
    expect((await h.request(`/apps/${app.slug}`, { method: 'DELETE' })).status).toBe(405);
  });

  it('builds the status URL from SVC_PUBLIC_URL, whatever Host the request names', async () => {
    const app = await published();
    const body = JSON.stringify({ topic: 'tides', tone: 'fun' });
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        `${h.url}/apps/${app.slug}/runs`,
        { method: 'POST', headers: { host: 'evil.example:666', 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(201);
    expect(answer.body.statusUrl).toBe(
      `${h.config.publicUrl}/apps/${app.slug}/runs/${answer.body.runId}?token=${answer.body.token}`,
    );
    expect(answer.body.statusUrl).not.toContain('evil.example');
  });

  it('starts a run from JSON, charged to the workspace with metadata.appId, and shows it to the token holder', async () => {
    const app = await published();
    const res = await h.request(`/apps/${app.slug}/runs`, { method: 'POST', json: { topic: 'tides', tone: 'fun' } });
    const started = await ok(Promise.resolve(res), 201);
    expect(started).toEqual({ runId: expect.any(String), token: expect.any(String), statusUrl: expect.any(String) });
    expect(started.statusUrl).toBe(`${h.url}/apps/${app.slug}/runs/${started.runId}?token=${started.token}`);
    const done = await waitDone(h, started.statusUrl);
    expect(done).toMatchObject({
      runId: started.runId,
      status: 'succeeded',
      output: { echo: { topic: 'tides', tone: 'fun' } },
      error: null,
    });
    const run = await ok(call(h, 'GET', `/v1/runs/${started.runId}`, auth), 200);
    expect(run.metadata).toEqual({ appId: app.id });
    expect(run.input).toEqual({ topic: 'tides', tone: 'fun' });

    const finished = await fetch(started.statusUrl);
    const htmlPage = await finished.text();
    expect(htmlPage).toContain('data-status="succeeded"');
    expect(htmlPage).toContain('&quot;topic&quot;: &quot;tides&quot;');
    expect(finished.headers.get('refresh')).toBeNull();

    const base = `/apps/${app.slug}/runs/${started.runId}`;
    await error(h.request(`${base}?token=wrong`), 404, 'not_found');
    await error(h.request(base), 404, 'not_found');
    await error(h.request(`/apps/${app.slug}/runs/${randomUUID()}?token=${started.token}`), 404, 'not_found');
    const other = await published();
    await error(h.request(`/apps/${other.slug}/runs/${started.runId}?token=${started.token}`), 404, 'not_found');

    const today = new Date().toISOString().slice(0, 10);
    const usage = await ok(call(h, 'GET', `/v1/apps/${app.id}/usage?from=${today}&to=${today}`, auth), 200);
    expect(usage).toMatchObject({ runs: 1, costUsd: run.usage.costUsd, billedUsd: null });
    const list = await ok(call(h, 'POST', '/v1/price-lists', auth, { name: `apps-${randomUUID()}` }), 201);
    await ok(
      call(h, 'POST', `/v1/price-lists/${list.id}/rules`, auth, {
        match: { appId: app.id },
        perRunUsd: 0.5,
        priority: 1,
      }),
      201,
    );
    await ok(call(h, 'PATCH', `/v1/apps/${app.id}`, auth, { priceListId: list.id }), 200);
    const billed = await ok(call(h, 'GET', `/v1/apps/${app.id}/usage?from=${today}&to=${today}`, auth), 200);
    expect(billed).toMatchObject({ runs: 1, priceListId: list.id, billedUsd: 0.5 });

    await ok(call(h, 'POST', `/v1/apps/${app.id}/pause`, auth), 200);
    await error(fetch(started.statusUrl), 404, 'not_found');
    await error(h.request(`/apps/${app.slug}/runs`, { method: 'POST', json: { topic: 'x' } }), 404, 'not_found');
  });

  it('takes a browser form post and redirects to the status page; a refused form comes back with its problems', async () => {
    const app = await published();
    const post = (body: string) =>
      fetch(`${h.url}/apps/${app.slug}/runs`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    const res = await post('topic=moon+%3Cphases%3E&tone=plain');
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/apps/${app.slug}/runs/[0-9a-f-]{36}\\?token=`));
    const firstRes = await fetch(`${h.url}${location}`);
    const first = await firstRes.text();
    expect(first).toMatch(/data-status="(queued|running|succeeded)"/);
    if (!first.includes('succeeded')) {
      expect(firstRes.headers.get('refresh')).toBe('2');
      expect(first).toContain('Stop automatic updates');
      const manual = await fetch(`${h.url}${location}&refresh=off`);
      expect(manual.headers.get('refresh')).toBeNull();
    }
    const done = await waitDone(h, `${h.url}${location}`);
    expect(done.output).toEqual({ echo: { topic: 'moon <phases>', tone: 'plain' } });

    const refused = await post('topic=&tone=loud');
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain('role="alert"');
    expect(page).toContain('aria-invalid="true"');
    expect(page).toContain('One of: plain, fun');
  });

  it('validates JSON submissions field by field', async () => {
    const app = await published({
      form: {
        fields: [
          { name: 'topic', label: 'Topic', type: 'text', required: true },
          { name: 'count', label: 'Count', type: 'number', required: false },
        ],
      },
    });
    const submit = (json: unknown) => h.request(`/apps/${app.slug}/runs`, { method: 'POST', json });
    const e = await error(submit({ count: 'many', other: 1 }), 400, 'validation_error');
    expect(e.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['count', 'other', 'topic']);
    await error(submit([1]), 400, 'validation_error');
    await error(submit({ topic: 'a\nb' }), 400, 'validation_error');
    await error(
      h.request(`/apps/${app.slug}/runs`, {
        method: 'POST',
        body: '{',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    await error(
      h.request(`/apps/${app.slug}/runs`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    const started = await ok(submit({ topic: 'ok', count: '3' }), 201);
    expect((await waitDone(h, started.statusUrl)).output).toEqual({ echo: { topic: 'ok', count: 3 } });
  });

  it('limits run starts per client IP (429 with Retry-After)', async () => {
    const limited = await startApi({ appRatePerMin: 3 });
    try {
      const owner = await signUp(limited);
      const key = bearer(await createKey(limited, owner, ['apps:manage', 'agents:write']));
      const app = await newApp(limited, key, await newAgent(limited, key));
      await ok(call(limited, 'POST', `/v1/apps/${app.id}/publish`, key), 200);
      await freshRateWindow();
      const submit = () => limited.request(`/apps/${app.slug}/runs`, { method: 'POST', json: { topic: 'x' } });
      // runs stay queued (no worker on this API's task queue): only the count matters
      for (let i = 0; i < 3; i++) expect((await submit()).status).toBe(201);
      const res = await submit();
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await res.json()).error).toMatchObject({ code: 'rate_limited', message: 'Rate limit exceeded' });
      // the form page itself is not limited
      expect((await limited.request(`/apps/${app.slug}`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
