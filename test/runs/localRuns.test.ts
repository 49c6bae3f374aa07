import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, signUp } from '../helpers/factories';
import { createAgent } from '../helpers/runs';

// POST /v1/local-runs (runner:run, docs/api/runs.md).
describe('local runs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startApi();
  });
  afterAll(() => h.close());

  it('records a batch of finished runs that then read like any other run', async () => {
    const owner = await signUp(h);
    const auth = bearer(await createKey(h, owner, ['runner:run', 'runs:read', 'agents:write']));
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const res = await h.request('/v1/local-runs', {
      method: 'POST',
      headers: auth,
      json: {
        agentId: agent.id,
        runs: [
          {
            input: { q: 1 },
            status: 'succeeded',
            output: { a: 1 },
            startedAt: '2026-11-01T10:00:00Z',
            completedAt: '2026-11-01T10:00:05Z',
            usage: { inputTokens: 10, outputTokens: 3 },
          },
          {
            input: {},
            status: 'failed',
            error: { code: 'agent.tool_error', message: 'disk full' },
            startedAt: '2026-11-01T11:00:00Z',
            completedAt: '2026-11-01T11:00:01Z',
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    const { runs } = await res.json();
    expect(runs.map((r: { status: string }) => r.status)).toEqual(['succeeded', 'failed']);
    const ok = await (await h.request(`/v1/runs/${runs[0].id}`, { headers: auth })).json();
    expect(ok).toMatchObject({
      status: 'succeeded',
      output: { a: 1 },
      usage: { inputTokens: 10, outputTokens: 3 },
      completedAt: '2026-11-01T10:00:05.000Z',
    });
    const failed = await (await h.request(`/v1/runs/${runs[1].id}`, { headers: auth })).json();
    expect(failed.error).toEqual({ code: 'agent.tool_error', message: 'disk full' });
    // the event stream of a recorded run ends at once with its terminal status
    const stream = await (await h.request(`/v1/runs/${runs[0].id}/events`, { headers: auth })).text();
    expect(stream).toContain('"status":"succeeded"');
  });

  it('needs runner:run, and stores nothing from an invalid batch', async () => {
    const owner = await signUp(h);
    const reader = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
    const agent = await createAgent(h, reader, { presetId: 'general-assistant' });
    const body = {
      agentId: agent.id,
      runs: [{ status: 'succeeded', startedAt: '2026-11-01T10:00:00Z', completedAt: '2026-11-01T10:00:01Z' }],
    };
    expect((await h.request('/v1/local-runs', { method: 'POST', headers: reader, json: body })).status).toBe(403);
    const runner = bearer(await createKey(h, owner, ['runner:run', 'runs:read']));
    const bad = { agentId: agent.id, runs: [...body.runs, { status: 'running', startedAt: 'x', completedAt: 'y' }] };
    const res = await h.request('/v1/local-runs', { method: 'POST', headers: runner, json: bad });
    expect(res.status).toBe(400);
    expect((await (await h.request('/v1/runs', { headers: runner })).json()).runs).toEqual([]);
  });

  it('answers dates outside years 1970..9999 or out of order with 400 validation_error, never 500', async () => {
    const owner = await signUp(h);
    const auth = bearer(await createKey(h, owner, ['runner:run', 'runs:read', 'agents:write']));
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    const post = (startedAt: string, completedAt: string) =>
      h.request('/v1/local-runs', {
        method: 'POST',
        headers: auth,
        json: { agentId: agent.id, runs: [{ status: 'succeeded', startedAt, completedAt }] },
      });
    for (const [startedAt, completedAt] of [
      ['0020-02-29T00:00:00Z', '2026-11-01T10:00:00Z'],
      ['0000-01-01T00:00:00Z', '2026-11-01T10:00:00Z'],
      ['1969-12-31T23:59:59Z', '2026-11-01T10:00:00Z'],
      ['2026-02-29T00:00:00Z', '2026-11-01T10:00:00Z'],
      // half a second after it completed, though the strings sort the other way
      ['2026-11-01T10:00:00.5Z', '2026-11-01T10:00:00Z'],
    ]) {
      const res = await post(startedAt, completedAt);
      const body = await res.json();
      expect({ startedAt, status: res.status, code: body.error?.code }).toEqual({
        startedAt,
        status: 400,
        code: 'validation_error',
      });
      expect(body.error.details.issues.length).toBeGreaterThan(0);
    }
    expect((await (await h.request('/v1/runs', { headers: auth })).json()).runs).toEqual([]);
    const edge = await post('1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z');
    expect(edge.status).toBe(201);
  });
});
