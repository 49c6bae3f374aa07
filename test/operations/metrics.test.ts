import { loadConfig } from '../../platform/config';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, type RunningWorker } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';
import { parseProm, sampleOf } from './promText';

const TOKEN = 'metrics-token-0123456789';

// What an operator's Prometheus scrapes (docs/operations.md#metrics): the API's /metrics behind its token, the
// worker's on a port of its own, and the series a run leaves in both.
describe('metrics', () => {
  let h: Harness;
  let worker: RunningWorker;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const base = loadConfig(process.env);
    ({ h, worker, stop } = await startRunStack({
      allowPrivateWebhooks: true,
      observability: { ...base.observability, metricsToken: TOKEN, workerMetrics: { host: '127.0.0.1', port: 0 } },
    }));
  }, 120_000);
  afterAll(() => stop?.());

  const scrapeApi = async () => {
    const res = await h.request('/metrics', { headers: bearer(TOKEN) });
    expect(res.status).toBe(200);
    return parseProm(await res.text());
  };
  const scrapeWorker = async () => {
    const res = await fetch(`${worker.worker.metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    return parseProm(await res.text());
  };

  it('answers only with the operator token', async () => {
    for (const headers of [{}, bearer('metrics-token-wrong-0000000'), { authorization: TOKEN }]) {
      const res = await h.request('/metrics', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect((await res.json()).error.code).toBe('unauthorized');
    }
    const res = await h.request('/metrics', { headers: bearer(TOKEN) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('svc_process_cpu_seconds_total');
    expect((await h.request('/metrics', { method: 'POST', headers: bearer(TOKEN) })).status).toBe(405);
  });

  it('is not there while SVC_METRICS_TOKEN is unset', async () => {
    const plain = await startApi();
    try {
      const res = await plain.request('/metrics', { headers: bearer(TOKEN) });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    } finally {
      await plain.close();
    }
  });

  it('a run with a gate and a webhook leaves its series in the API and the worker', async () => {
    expect(worker.worker.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write', 'webhooks:manage']));
    const rx = await startReceiver();
    try {
      const sub = await h.request('/v1/webhooks', {
        method: 'POST',
        headers: auth,
        json: { url: rx.url, events: ['run.succeeded'], secret: 'whsec-0123456789abcdef' },
      });
      expect(sub.status).toBe(201);
      const agent = await createAgent(h, auth, { presetId: 'scripted' });
      const run = await createRun(h, auth, {
        agentId: agent.id,
        input: { script: [{ ask: 'name?' }, { final: { done: true } }] },
      });
      await waitForStatus(h, auth, run.id, 'needs_input');

      // a stream open on the run counts while it is open
      const stream = await h.request(`/v1/runs/${run.id}/events`, { headers: auth });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      await reader.read();
      expect(sampleOf(await scrapeApi(), 'svc_event_streams_open')).toBe(1);

      const answered = await h.request(`/v1/runs/${run.id}/input`, {
        method: 'POST',
        headers: auth,
        json: { answer: 'Ada' },
      });
      expect(answered.status).toBe(202);
      await waitForStatus(h, auth, run.id, 'succeeded');
      // the stream ends after the terminal status, and gives its count back
      while (!(await reader.read()).done);
      await pollUntil(
        10_000,
        async () => sampleOf(await scrapeApi(), 'svc_event_streams_open'),
        (n) => n === 0,
      );
      await pollUntil(
        20_000,
        () => rx.received.length,
        (n) => n >= 1,
        'the webhook delivery',
      );

      const api = await scrapeApi();
      const created = { method: 'POST', route: '/v1/runs', status: '201' };
      expect(sampleOf(api, 'svc_http_requests_total', created)).toBeGreaterThanOrEqual(1);
      expect(sampleOf(api, 'svc_http_request_duration_seconds_count', created)).toBeGreaterThanOrEqual(1);
      expect(
        sampleOf(api, 'svc_http_request_duration_seconds_bucket', { ...created, le: '+Inf' }),
      ).toBeGreaterThanOrEqual(1);
      // one series per declared route, whatever the id in the path
      expect(sampleOf(api, 'svc_http_requests_total', { method: 'GET', route: '/v1/runs/:id' })).toBeGreaterThan(0);
      expect(api.some((s) => s.labels.route?.includes(run.id))).toBe(false);
      expect(sampleOf(api, 'svc_runs_created_total', { source: 'request' })).toBeGreaterThanOrEqual(1);
      expect(sampleOf(api, 'svc_gate_wait_seconds_count', { gate: 'input' })).toBeGreaterThanOrEqual(1);
      expect(sampleOf(api, 'svc_outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(sampleOf(api, 'svc_outbox_pending')).toBeGreaterThanOrEqual(0);
      expect(sampleOf(api, 'svc_holds_open')).toBeGreaterThanOrEqual(0);
      expect(sampleOf(api, 'svc_holds_open_usd')).toBeGreaterThanOrEqual(0);

      const w = await scrapeWorker();
      expect(sampleOf(w, 'svc_runs_finished_total', { status: 'succeeded' })).toBeGreaterThanOrEqual(1);
      const delivered = { kind: 'webhook', outcome: 'delivered' };
      expect(sampleOf(w, 'svc_webhook_attempts_total', delivered)).toBeGreaterThanOrEqual(1);
      expect(sampleOf(w, 'svc_webhook_attempt_duration_seconds_count', delivered)).toBeGreaterThanOrEqual(1);
    } finally {
      await rx.close();
    }
  }, 90_000);

  it('times a gate under an approval policy once, when the answer that decides it comes', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
    const agent = await createAgent(h, auth, {
      presetId: 'scripted',
      settings: {
        approval: 'before_output',
        approvalPolicy: { approvers: { roles: ['owner'] }, required: 1, allowKeys: true, forbidSelfApproval: false },
      },
    });
    const approvals = async () => sampleOf(await scrapeApi(), 'svc_gate_wait_seconds_count', { gate: 'approval' }) ?? 0;
    const before = await approvals();
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { sent: true } }] } });
    await waitForStatus(h, auth, run.id, 'needs_approval');
    const res = await h.request(`/v1/runs/${run.id}/approve`, {
      method: 'POST',
      headers: auth,
      json: { approved: true },
    });
    expect(res.status).toBe(202);
    await waitForStatus(h, auth, run.id, 'succeeded');
    expect(await approvals()).toBe(before + 1);
  }, 60_000);

  it('counts a path no route declares as unmatched, once for all such paths', async () => {
    await h.request(`/no/such/path/${Date.now()}`);
    await h.request(`/no/such/path/${Date.now()}-2`);
    const api = await scrapeApi();
    expect(sampleOf(api, 'svc_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(2);
  });
});
