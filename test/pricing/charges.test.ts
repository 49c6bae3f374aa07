import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, type RunningWorker } from '../helpers/worker';

type Headers = Record<string, string>;
const SCOPES = ['runs:read', 'runs:write', 'agents:read', 'agents:write', 'usage:read'] as const;

// Price lists are what a workspace charges its customers; what the service charges the workspace never
// depends on them (docs/api/pricing.md). Real runs on a real worker.
describe('price lists and what the service charges', () => {
  let h: Harness;
  let worker: RunningWorker;
  beforeAll(async () => {
    ({ h, worker } = await startRunStack());
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  async function account(): Promise<Headers> {
    const a = await signUp(h);
    await setPlan(h, a.workspaceId, 'scale');
    return bearer(await createKey(h, a, [...SCOPES]));
  }
  const get = async (headers: Headers, path: string) => {
    const res = await h.request(path, { headers });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return res.json();
  };
  const post = async (headers: Headers, path: string, json: unknown) => {
    const res = await h.request(path, { method: 'POST', headers, json });
    expect({ path, status: res.status }).toEqual({ path, status: 201 });
    return res.json();
  };

  /** Runs the same two runs (echo, then a scripted one) and returns their runs once finished. */
  async function runBoth(auth: Headers, agents: { echo: string; scripted: string }) {
    const script = [{ final: { answer: 'forty-two' } }];
    const runs = [
      await createRun(h, auth, { agentId: agents.echo, input: { hello: 'world', pad: 'x'.repeat(400) } }),
      await createRun(h, auth, { agentId: agents.scripted, input: { script } }),
    ];
    return Promise.all(runs.map((r) => waitForStatus(h, auth, r.id, 'succeeded')));
  }

  it('charges the same run the same, and leaves the same balance, with or without price lists', async () => {
    const plain = await account();
    const priced = await account();
    const agentsOf = async (auth: Headers) => ({
      echo: (await createAgent(h, auth, { name: 'echo' })).id,
      scripted: (await createAgent(h, auth, { name: 'scripted', presetId: 'scripted' })).id,
    });
    const plainAgents = await agentsOf(plain);
    const pricedAgents = await agentsOf(priced);

    // every kind of rule, generous and stingy, on a default list and on another one
    const main = await post(priced, '/v1/price-lists', { name: 'retail', isDefault: true });
    await post(priced, `/v1/price-lists/${main.id}/rules`, {
      perRunUsd: 0.5,
      inputPerMTokUsd: 2,
      markupPercent: 1000,
      priority: 1,
    });
    await post(priced, `/v1/price-lists/${main.id}/rules`, {
      match: { agentId: pricedAgents.scripted },
      perRunUsd: 0,
      markupPercent: 0,
      priority: 9,
    });
    const cheap = await post(priced, '/v1/price-lists', { name: 'free' });
    await post(priced, `/v1/price-lists/${cheap.id}/rules`, { perRunUsd: 0, priority: 1 });

    const before = [await get(plain, '/v1/usage/balance'), await get(priced, '/v1/usage/balance')];
    expect(before[1].balanceUsd).toBe(before[0].balanceUsd);
    const plainRuns = await runBoth(plain, plainAgents);
    const pricedRuns = await runBoth(priced, pricedAgents);
    expect(pricedRuns.map((r) => r.usage)).toEqual(plainRuns.map((r) => r.usage));
    expect(pricedRuns[0].usage.costUsd).toBeGreaterThan(0);
    const after = [await get(plain, '/v1/usage/balance'), await get(priced, '/v1/usage/balance')];
    expect(after[1].balanceUsd).toBe(after[0].balanceUsd);
    expect(after[1].balanceUsd).toBeLessThan(before[1].balanceUsd);

    // usage reports the same service cost; billedUsd only with a price list, and only the caller's
    const day = new Date().toISOString().slice(0, 10);
    const range = `from=${day}&to=${day}`;
    const plainUsage = await get(plain, `/v1/usage?${range}`);
    const pricedUsage = await get(priced, `/v1/usage?${range}`);
    expect(pricedUsage).not.toHaveProperty('billedUsd');
    expect({ ...pricedUsage, byAgent: [] }).toEqual({ ...plainUsage, byAgent: [] });

    // the catch-all prices the echo run: 0.5 + 2 µ$ a token + 11 × its cost; the scripted run: its cost
    const billed = await get(priced, `/v1/usage?${range}&priceListId=${main.id}`);
    const [echoRun, scriptedRun] = pricedRuns;
    const micros = (usd: number) => Math.round(usd * 1e6);
    const expected =
      500_000 + 2 * echoRun.usage.inputTokens + 11 * micros(echoRun.usage.costUsd) + micros(scriptedRun.usage.costUsd);
    expect(micros(billed.billedUsd)).toBe(expected);
    expect({ ...billed, billedUsd: 0 }).toEqual({ ...pricedUsage, billedUsd: 0 });
    expect((await get(priced, `/v1/usage?${range}&priceListId=${cheap.id}`)).billedUsd).toBe(0);
    // a quote of the same echo run agrees with the bill
    const quoted = await get(
      priced,
      `/v1/price-lists/${main.id}/quote?agentId=${pricedAgents.echo}&inputTokens=${echoRun.usage.inputTokens}&outputTokens=${echoRun.usage.outputTokens}`,
    );
    expect(micros(quoted.priceUsd)).toBe(500_000 + 2 * echoRun.usage.inputTokens + 11 * micros(echoRun.usage.costUsd));

    // nothing the price lists did shows in the ledger: the balance moved by exactly the runs' costs
    const spent = micros(before[1].balanceUsd) - micros(after[1].balanceUsd);
    expect(spent).toBe(pricedRuns.reduce((sum, r) => sum + micros(r.usage.costUsd), 0));
  }, 120_000);
});
