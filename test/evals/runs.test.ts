import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { runAdmin } from '../../scripts/admin';
import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;

// Eval runs (docs/api/evals.md): every case a real, charged run visible in GET /v1/runs, gates answered
// from the case, the four scorers.
describe('eval runs', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let owner: Account;
  let auth: Headers;
  let modelServer: http.Server;

  beforeAll(async () => {
    // An OpenAI-compatible endpoint: as the judge it scores 0.8, as the agent it answers {"done":true}.
    modelServer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const judging = Buffer.concat(chunks).toString().includes('You grade an AI agent');
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            choices: [{ message: { role: 'assistant', content: judging ? '{"score":0.8}' : '{"done":true}' } }],
            usage: { prompt_tokens: 10, completion_tokens: 5 },
          }),
        );
      });
    });
    await new Promise<void>((r) => modelServer.listen(0, '127.0.0.1', r));
    const { loadConfig } = await import('../../platform/config');
    const base = loadConfig(process.env);
    ({ h, stop } = await startRunStack({
      openai: {
        ...base.openai,
        baseUrl: `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1`,
        apiKey: 'sk-test',
        models: [{ name: 'grader', inputPerMTokUsd: 0, outputPerMTokUsd: 0 }],
      },
    }));
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['agents:read', 'agents:write', 'runs:read']));
  });
  afterAll(async () => {
    await stop();
    modelServer.close();
  });

  const call = (method: string, path: string, json?: unknown) => h.request(path, { method, headers: auth, json });

  async function runEval(agentId: string, cases: unknown[], version?: number): Promise<any> {
    const created = await ok(call('POST', `/v1/agents/${agentId}/evals`, { name: 'e', cases }), 201);
    const started = await ok(call('POST', `/v1/evals/${created.id}/runs`, version ? { version } : {}), 202);
    expect(started).toMatchObject({ evalId: created.id, status: 'queued', total: cases.length, results: [] });
    return pollUntil(
      60_000,
      () => ok(call('GET', `/v1/eval-runs/${started.id}`), 200),
      (run) => run.status === 'succeeded' || run.status === 'failed',
      'the eval run to finish',
    );
  }

  async function caseRuns(evalRunId: string): Promise<any[]> {
    const { runs } = await ok(call('GET', '/v1/runs?limit=100'), 200);
    return runs.filter((r: any) => r.metadata.evalRunId === evalRunId);
  }

  it('scores each case of a builtin agent with its scorer, each case a charged run', async () => {
    const agent = await createAgent(h, auth, { modelId: 'builtin/echo' });
    const input = { q: 'hello world' };
    const cases = [
      { input, expected: { echo: input }, scorer: 'exact' },
      { input, expected: { echo: { q: 'other' } }, scorer: 'exact' },
      { input, expected: 'hello', scorer: 'contains' },
      { input, expected: 'goodbye', scorer: 'contains' },
      { input: { q: 'x', n: 1 }, expected: { echo: { n: 1 } }, scorer: 'json_subset' },
      { input: { q: 'x', n: 1 }, expected: { echo: { n: 2 } }, scorer: 'json_subset' },
      { input, expected: { echo: input }, scorer: 'judge' },
      { input, expected: 'no', scorer: 'judge' },
    ];
    const run = await runEval(agent.id, cases);
    expect(run).toMatchObject({ status: 'succeeded', total: 8, passed: 4, score: 0.5, agentVersion: 1 });
    expect(run.completedAt).toEqual(expect.any(String));
    expect(run.results.map((r: any) => [r.caseIndex, r.passed, r.score])).toEqual([
      [0, true, 1],
      [1, false, 0],
      [2, true, 1],
      [3, false, 0],
      [4, true, 1],
      [5, false, 0],
      [6, true, 1],
      [7, false, 0],
    ]);
    const runs = await caseRuns(run.id);
    expect(runs).toHaveLength(8);
    expect(new Set(runs.map((r) => r.id))).toEqual(new Set(run.results.map((r: any) => r.runId)));
    for (const r of runs) {
      expect(r).toMatchObject({ status: 'succeeded', agentId: agent.id, metadata: { evalRunId: run.id } });
      expect(r.usage.costUsd).toBeGreaterThan(0);
    }
    const [{ n }] = await h.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from ledger_entries where kind = 'charge' and run_id in (?)`, [
        runs.map((r) => r.id),
      ]);
    expect(n).toBe(8);
    // the eval's run list shows it
    const { evalRuns } = await ok(call('GET', `/v1/evals/${run.evalId}/runs`), 200);
    expect(evalRuns).toEqual([run]);
  });

  it('answers ask_user from the case in order and accepts approval and review', async () => {
    const agent = await createAgent(h, auth, {
      modelId: 'builtin/scripted',
      settings: { approval: 'before_output', review: true },
    });
    const script = [{ ask: 'name?' }, { ask: 'age?' }];
    const run = await runEval(agent.id, [
      { input: { script }, answers: ['Ada', '36'], expected: { answers: ['Ada', '36'] }, scorer: 'exact' },
      { input: { script }, answers: ['Ada'], expected: { answers: ['Ada'] }, scorer: 'exact' },
      { input: { script: [{ final: { ok: true } }] }, expected: { ok: true }, scorer: 'exact' },
    ]);
    expect(run).toMatchObject({ status: 'succeeded', total: 3, passed: 2 });
    const [answered, shortOfAnswers, plain] = run.results;
    expect(answered).toMatchObject({ passed: true, score: 1 });
    expect(plain).toMatchObject({ passed: true, score: 1 });
    expect(shortOfAnswers).toMatchObject({ passed: false, score: 0 });
    expect(shortOfAnswers.detail).toContain('No answer left');
    const runs = await caseRuns(run.id);
    const byId = new Map(runs.map((r) => [r.id, r]));
    expect(byId.get(answered.runId).status).toBe('succeeded');
    expect(byId.get(shortOfAnswers.runId).status).toBe('cancelled');
    const { steps } = await ok(call('GET', `/v1/runs/${answered.runId}/steps`), 200);
    expect(steps.map((s: any) => s.type)).toEqual(expect.arrayContaining(['input', 'input', 'approval', 'review']));
  });

  it('scores a case the credit check refuses 0 without a run, and fails an eval run none of whose cases ran', async () => {
    const poor = await signUp(h);
    const poorAuth = bearer(await createKey(h, poor, ['agents:read', 'agents:write', 'runs:read']));
    await runAdmin(h.orm, ['credits:set', poor.workspaceId, '0']);
    const agent = await createAgent(h, poorAuth, { modelId: 'builtin/echo' });
    const created = await ok(
      h.request(`/v1/agents/${agent.id}/evals`, {
        method: 'POST',
        headers: poorAuth,
        json: { name: 'broke', cases: [{ input: {}, expected: { echo: {} }, scorer: 'exact' }] },
      }),
      201,
    );
    const started = await ok(
      h.request(`/v1/evals/${created.id}/runs`, { method: 'POST', headers: poorAuth, json: {} }),
      202,
    );
    const run = await pollUntil(
      50_000,
      () => ok(h.request(`/v1/eval-runs/${started.id}`, { headers: poorAuth }), 200),
      (r) => r.status === 'failed' || r.status === 'succeeded',
      'the eval run to finish',
    );
    expect(run).toMatchObject({ status: 'failed', passed: 0, score: 0 });
    expect(run.results).toEqual([
      {
        caseIndex: 0,
        runId: null,
        passed: false,
        score: 0,
        detail: expect.stringContaining('billing.insufficient_credits'),
      },
    ]);
  });

  it('asks a real model to judge, and runs an older version when asked', async () => {
    const agent = await createAgent(h, auth, { modelId: 'openai/grader' });
    await ok(call('PATCH', `/v1/agents/${agent.id}`, { modelId: 'builtin/echo' }), 200);
    const run = await runEval(agent.id, [{ input: { q: 1 }, expected: { done: true }, scorer: 'judge' }], 1);
    expect(run).toMatchObject({ status: 'succeeded', agentVersion: 1, passed: 1, score: 0.8 });
    expect(run.results[0]).toMatchObject({ passed: true, score: 0.8, detail: expect.stringContaining('0.8') });
  });
});
