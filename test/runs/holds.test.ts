import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runAdmin } from '../../scripts/admin';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, type RunningWorker } from '../helpers/worker';

// Credit holds (docs/api/billing.md#holds): creation holds, every model turn tops up or fails the run,
// the end settles; the balance never goes below 0.
describe('credit holds', () => {
  let h: Harness;
  let worker: RunningWorker;
  let modelServer: http.Server;
  const turnsOf = new Map<string, number>();

  beforeAll(async () => {
    // An OpenAI-compatible endpoint priced at 1 USD per million tokens both ways (below). A run whose
    // input says "expensive" calls a tool on every turn and reads 100 000 tokens a turn (0.1 USD); one
    // that says "ask-once" asks the person once, then answers, 300 + 200 tokens a turn.
    modelServer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const mode = /(expensive|ask-once)-[0-9a-f-]+/.exec(body)?.[0] ?? 'unknown';
        turnsOf.set(mode, (turnsOf.get(mode) ?? 0) + 1);
        const answered = body.includes('"role":"tool"');
        const reply = (message: Record<string, unknown>, usage: object) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', ...message } }], usage }));
        };
        const call = (name: string, args: object) => ({
          content: null,
          tool_calls: [
            { id: `call_${Date.now()}`, type: 'function', function: { name, arguments: JSON.stringify(args) } },
          ],
        });
        if (mode.startsWith('expensive')) {
          // the tool fails (nothing listens there), which the model hears as the tool's result
          reply(call('http_request', { url: 'http://127.0.0.1:9/' }), { prompt_tokens: 100_000, completion_tokens: 0 });
        } else if (!answered) {
          reply(call('ask_user', { question: 'go on?' }), { prompt_tokens: 300, completion_tokens: 200 });
        } else {
          reply({ content: '{"done":true}' }, { prompt_tokens: 300, completion_tokens: 200 });
        }
      });
    });
    await new Promise<void>((r) => modelServer.listen(0, '127.0.0.1', r));
    const { loadConfig } = await import('../../platform/config');
    const base = loadConfig(process.env);
    ({ h, worker } = await startRunStack({
      openai: {
        ...base.openai,
        baseUrl: `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1`,
        apiKey: 'sk-test',
        models: [{ name: 'metered', inputPerMTokUsd: 1, outputPerMTokUsd: 1 }],
      },
    }));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
    modelServer?.closeAllConnections();
    modelServer?.close();
  });

  const setup = async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write', 'usage:read']));
    return { owner, auth };
  };
  const balanceOf = async (auth: Record<string, string>) =>
    (await (await h.request('/v1/usage/balance', { headers: auth })).json()).balanceUsd as number;
  const sql = (text: string, params: unknown[]): Promise<any[]> =>
    h.orm.em.fork().getConnection().execute(text, params);
  /** The ledger rows of a run, by kind, in micro-USD. */
  const ledgerOf = async (runId: string) => {
    const rows = await sql(
      'select kind, sum(amount_micros) as total from ledger_entries where run_id = ? group by kind',
      [runId],
    );
    return Object.fromEntries(rows.map((r: { kind: string; total: string }) => [r.kind, Number(r.total)]));
  };
  /** The workspace's balance equals the sum of its ledger, and nothing stays held once its runs ended. */
  const expectSettled = async (owner: Account) => {
    const [ws] = await sql(
      `select credit_balance_micros as balance,
         (select sum(amount_micros) from ledger_entries where workspace_id = w.id) as ledger,
         (select coalesce(sum(held_micros), 0) from runs where workspace_id = w.id) as held
       from workspaces w where id = ?`,
      [owner.workspaceId],
    );
    expect(Number(ws.balance)).toBeGreaterThanOrEqual(0);
    expect(Number(ws.ledger)).toBe(Number(ws.balance));
    expect(Number(ws.held)).toBe(0);
  };

  it('50 concurrent creates against a balance that covers 5 runs: exactly 5 created, never overdrawn', async () => {
    const { owner, auth } = await setup();
    const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
    // builtin/echo: perRunUsd 0.001 and free tokens, so each run requires exactly 0.001
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '0.005']);
    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [ws] = await sql('select credit_balance_micros as b from workspaces where id = ?', [owner.workspaceId]);
        samples.push(Number(ws.b));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.request('/v1/runs', { method: 'POST', headers: auth, json: { agentId: agent.id, input: { i } } }),
      ),
    );
    const bodies = await Promise.all(burst.map((r) => r.json()));
    const created = bodies.filter((_, i) => burst[i].status === 201);
    expect(created).toHaveLength(5);
    const refused = bodies.filter((_, i) => burst[i].status === 402);
    expect(refused).toHaveLength(45);
    for (const body of refused) expect(body.error.code).toBe('billing.insufficient_credits');
    for (const run of created) await waitForStatus(h, auth, run.id, 'succeeded');
    sampling = false;
    await sampler;
    expect(samples.length).toBeGreaterThan(0);
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(0);
    expect(await balanceOf(auth)).toBe(0);
    await expectSettled(owner);
  }, 120_000);

  it('fails a run whose turns outgrow its hold with billing.insufficient_credits before the balance runs out', async () => {
    const { owner, auth } = await setup();
    const agent = await createAgent(h, auth, { name: 'metered', modelId: 'openai/metered', tools: ['http_request'] });
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '0.25']);
    const mode = `expensive-${owner.workspaceId}`;
    const run = await createRun(h, auth, { agentId: agent.id, input: { mode } });
    const done = await waitForStatus(h, auth, run.id, ['succeeded', 'failed', 'cancelled'], 60_000);
    // two turns of 0.1 fit in 0.25; the third would not, so it is never sent
    expect(done).toMatchObject({
      status: 'failed',
      error: { code: 'billing.insufficient_credits' },
      usage: { inputTokens: 200_000, outputTokens: 0, costUsd: 0.2 },
    });
    expect(turnsOf.get(mode)).toBe(2);
    expect(await balanceOf(auth)).toBe(0.05);
    const ledger = await ledgerOf(run.id);
    expect(ledger.charge).toBe(-200_000);
    expect(ledger.release).toBe(-ledger.hold);
    await expectSettled(owner);
  }, 90_000);

  it('holds credits while a run goes, then charges what it used and releases the rest', async () => {
    const { owner, auth } = await setup();
    const agent = await createAgent(h, auth, { name: 'metered', modelId: 'openai/metered' });
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '1']);
    const mode = `ask-once-${owner.workspaceId}`;
    // 40 000 characters of input: about 10 000 tokens, so the hold (about 0.01) is more than the run uses
    const run = await createRun(h, auth, { agentId: agent.id, input: { mode, text: 'x'.repeat(40_000) } });
    const asking = await waitForStatus(h, auth, run.id, 'needs_input');
    const [{ held }] = await sql('select held_micros as held from runs where id = ?', [run.id]);
    expect(Number(held)).toBeGreaterThan(10_000);
    // while the run goes, its hold is not available
    expect(await balanceOf(auth)).toBe((1_000_000 - Number(held)) / 1e6);
    const answered = await h.request(`/v1/runs/${run.id}/input`, {
      method: 'POST',
      headers: auth,
      json: { answer: 'yes', actionId: asking.pendingAction.id },
    });
    expect(answered.status).toBe(202);
    const done = await waitForStatus(h, auth, run.id, 'succeeded');
    // two turns of 300 + 200 tokens at 1 USD per million
    expect(done.usage).toEqual({ inputTokens: 600, outputTokens: 400, costUsd: 0.001 });
    expect(await balanceOf(auth)).toBe(0.999);
    // the second turn may have held a little more; all of it went back
    const ledger = await ledgerOf(run.id);
    expect(ledger.hold).toBeLessThanOrEqual(-Number(held));
    expect(ledger).toEqual({ hold: ledger.hold, release: -ledger.hold, charge: -1000 });
    await expectSettled(owner);
  }, 90_000);

  it('holds once for an idempotent create replayed in sequence and concurrently', async () => {
    const { owner, auth } = await setup();
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '1']);
    const body = { agentId: agent.id, input: { script: [{ ask: 'name?' }, { final: { ok: true } }] } };
    const headers = { ...auth, 'Idempotency-Key': `hold-${owner.workspaceId}` };
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => h.request('/v1/runs', { method: 'POST', headers, json: body })),
    );
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const again = await h.request('/v1/runs', { method: 'POST', headers, json: body });
    expect(again.status).toBe(200);
    const run = await again.json();
    await waitForStatus(h, auth, run.id, 'needs_input');
    // builtin/scripted holds 0.001, once
    expect(await balanceOf(auth)).toBe(0.999);
    expect(await ledgerOf(run.id)).toEqual({ hold: -1000 });
  }, 60_000);

  it('settles a run that holds nothing (created before holds) by charging it from the balance', async () => {
    const { owner, auth } = await setup();
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    await runAdmin(h.orm, ['credits:set', owner.workspaceId, '1']);
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ ask: 'name?' }] } });
    await waitForStatus(h, auth, run.id, 'needs_input');
    // what a run created before holds looks like: no hold row, nothing held, the balance whole
    await sql(`delete from ledger_entries where run_id = ? and kind = 'hold'`, [run.id]);
    await sql('update runs set held_micros = 0 where id = ?', [run.id]);
    await sql('update workspaces set credit_balance_micros = 1000000 where id = ?', [owner.workspaceId]);
    expect((await h.request(`/v1/runs/${run.id}/cancel`, { method: 'POST', headers: auth })).status).toBe(202);
    const done = await waitForStatus(h, auth, run.id, 'cancelled');
    // it had started: the per-run price, charged from the balance; nothing to release
    expect(done.usage.costUsd).toBe(0.001);
    expect(await balanceOf(auth)).toBe(0.999);
    expect(await ledgerOf(run.id)).toEqual({ charge: -1000 });
    await expectSettled(owner);
  }, 60_000);

  it("counts a key's open holds against its spend cap", async () => {
    const { owner } = await setup();
    const key = await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']);
    const auth = bearer(key);
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const { apiKeys } = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    const keyId = apiKeys.find((k: { prefix: string }) => key.startsWith(k.prefix)).id;
    // builtin/scripted holds 0.001 a run: the cap covers one
    const capped = await h.request(`/v1/api-keys/${keyId}/spend-cap`, {
      method: 'PUT',
      headers: { cookie: owner.cookie },
      json: { monthlySpendCapUsd: 0.001 },
    });
    expect(capped.status).toBe(200);
    const body = { agentId: agent.id, input: { script: [{ ask: 'name?' }, { final: { ok: true } }] } };
    const first = await createRun(h, auth, body);
    const asking = await waitForStatus(h, auth, first.id, 'needs_input');
    const second = await h.request('/v1/runs', { method: 'POST', headers: auth, json: body });
    expect(second.status).toBe(402);
    expect((await second.json()).error).toMatchObject({
      code: 'billing.spend_cap_exceeded',
      details: { cap: 0.001, spent: 0.001 },
    });
    const listed = await (await h.request('/v1/api-keys', { headers: { cookie: owner.cookie } })).json();
    expect(listed.apiKeys.find((k: { id: string }) => k.id === keyId).spentThisMonthUsd).toBe(0.001);
    await h.request(`/v1/runs/${first.id}/input`, {
      method: 'POST',
      headers: auth,
      json: { answer: 'Ada', actionId: asking.pendingAction.id },
    });
    await waitForStatus(h, auth, first.id, 'succeeded');
    // the hold became a charge of the same amount: still at the cap
    expect((await h.request('/v1/runs', { method: 'POST', headers: auth, json: body })).status).toBe(402);
    await expectSettled(owner);
  }, 60_000);
});
