import { randomUUID } from 'node:crypto';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';

type Headers = Record<string, string>;

// Price lists, pricing rules and quotes (docs/api/pricing.md).
describe('price lists, rules and quotes', () => {
  let h: Harness;
  let owner: Account;
  let writer: Headers;
  beforeAll(async () => {
    h = await startApi();
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    writer = bearer(await createKey(h, owner, ['agents:read', 'agents:write']));
  });
  afterAll(() => h.close());

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  const newList = (json: unknown = { name: 'Retail' }, headers = writer) =>
    ok(call('POST', '/v1/price-lists', headers, json), 201);
  const newRule = (listId: string, json: unknown) =>
    ok(call('POST', `/v1/price-lists/${listId}/rules`, writer, json), 201);
  const newAgent = async (json: unknown = { name: 'priced' }, headers = writer) =>
    ok(call('POST', '/v1/agents', headers, json), 201);
  const quote = (listId: string, query: string, headers = writer) =>
    call('GET', `/v1/price-lists/${listId}/quote?${query}`, headers);

  it('creates, reads, lists, renames and deletes price lists', async () => {
    const list = await newList({ name: ' Retail ' });
    expect(list).toEqual({
      id: expect.any(String),
      name: 'Retail',
      isDefault: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await ok(call('GET', `/v1/price-lists/${list.id}`, writer), 200)).toEqual(list);
    expect(await ok(call('PATCH', `/v1/price-lists/${list.id}`, writer, { name: 'Wholesale' }), 200)).toMatchObject({
      name: 'Wholesale',
    });
    const { priceLists, nextCursor } = await ok(call('GET', '/v1/price-lists?limit=100', writer), 200);
    expect(priceLists.map((p: { id: string }) => p.id)).toContain(list.id);
    expect(nextCursor).toBeNull();
    await newRule(list.id, { markupPercent: 10, priority: 1 });
    expect((await call('DELETE', `/v1/price-lists/${list.id}`, writer)).status).toBe(204);
    await error(call('GET', `/v1/price-lists/${list.id}`, writer), 404, 'not_found');
    await error(call('GET', `/v1/price-lists/${list.id}/rules`, writer), 404, 'not_found');
  });

  it('keeps one default per workspace, atomically, even under concurrent creates', async () => {
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    const auth = bearer(await createKey(h, account, ['agents:read', 'agents:write']));
    const defaults = async () =>
      (await ok(call('GET', '/v1/price-lists?limit=100', auth), 200)).priceLists
        .filter((p: { isDefault: boolean }) => p.isDefault)
        .map((p: { id: string }) => p.id);
    const a = await newList({ name: 'a', isDefault: true }, auth);
    expect(a.isDefault).toBe(true);
    const b = await newList({ name: 'b', isDefault: true }, auth);
    expect(await defaults()).toEqual([b.id]);
    expect((await ok(call('PATCH', `/v1/price-lists/${a.id}`, auth, { isDefault: true }), 200)).isDefault).toBe(true);
    expect(await defaults()).toEqual([a.id]);
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call('POST', '/v1/price-lists', auth, { name: `c${i}`, isDefault: true })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(await defaults()).toHaveLength(1);
    const flips = await Promise.all(
      [a.id, b.id, a.id, b.id].map((id) => call('PATCH', `/v1/price-lists/${id}`, auth, { isDefault: true })),
    );
    expect(flips.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await defaults()).toHaveLength(1);
    const [only] = await defaults();
    expect((await ok(call('PATCH', `/v1/price-lists/${only}`, auth, { isDefault: false }), 200)).isDefault).toBe(false);
    expect(await defaults()).toEqual([]);
  });

  it('caps price lists at 100 per workspace and rules at 500 per list, under concurrency too', async () => {
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    const auth = bearer(await createKey(h, account, ['agents:read', 'agents:write']));
    const lists: string[] = [];
    for (let i = 0; i < 95; i++) lists.push((await newList({ name: `l${i}` }, auth)).id);
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call('POST', '/v1/price-lists', auth, { name: `b${i}` })),
    );
    expect(burst.map((r) => r.status).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(409)]);
    const refused = await error(call('POST', '/v1/price-lists', auth, { name: 'over' }), 409, 'conflict');
    expect(refused.details).toEqual({ limit: 100 });
    const rule = (i: number) => call('POST', `/v1/price-lists/${lists[0]}/rules`, auth, { perRunUsd: 1, priority: i });
    for (let i = 0; i < 490; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => rule(i + j)));
      expect(batch.map((r) => r.status)).toEqual(Array(10).fill(201));
    }
    const last = await Promise.all(Array.from({ length: 15 }, (_, j) => rule(j)));
    expect(last.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), ...Array(5).fill(409)]);
    // another list still takes rules
    expect((await call('POST', `/v1/price-lists/${lists[1]}/rules`, auth, { perRunUsd: 1, priority: 1 })).status).toBe(
      201,
    );
    // about 600 creates one after another: on a busy machine that outlasts the default minute
  }, 180_000);

  it('adds, lists, changes and deletes rules; a rule keeps at least one price', async () => {
    const list = await newList();
    const agent = await newAgent();
    const rule = await newRule(list.id, {
      match: { agentId: agent.id },
      perRunUsd: 0.25,
      inputPerMTokUsd: 3,
      priority: 10,
    });
    expect(rule).toEqual({
      id: expect.any(String),
      priceListId: list.id,
      match: { agentId: agent.id, modelId: null, appId: null },
      perRunUsd: 0.25,
      inputPerMTokUsd: 3,
      outputPerMTokUsd: null,
      markupPercent: null,
      priority: 10,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const second = await newRule(list.id, { match: { modelId: 'builtin/echo' }, markupPercent: 12.3456, priority: 1 });
    expect(second.markupPercent).toBe(12.3456);
    const { rules } = await ok(call('GET', `/v1/price-lists/${list.id}/rules`, writer), 200);
    expect(rules.map((r: { id: string }) => r.id)).toEqual([second.id, rule.id]);
    const page = await ok(call('GET', `/v1/price-lists/${list.id}/rules?limit=1`, writer), 200);
    const rest = await ok(
      call('GET', `/v1/price-lists/${list.id}/rules?limit=1&cursor=${page.nextCursor}`, writer),
      200,
    );
    expect([page.rules[0].id, rest.rules[0].id, rest.nextCursor]).toEqual([second.id, rule.id, null]);

    const changed = await ok(
      call('PATCH', `/v1/pricing-rules/${rule.id}`, writer, { perRunUsd: null, outputPerMTokUsd: 15, match: {} }),
      200,
    );
    expect(changed).toMatchObject({
      match: { agentId: null, modelId: null, appId: null },
      perRunUsd: null,
      inputPerMTokUsd: 3,
      outputPerMTokUsd: 15,
      priority: 10,
    });
    const bare = await error(
      call('PATCH', `/v1/pricing-rules/${rule.id}`, writer, { inputPerMTokUsd: null, outputPerMTokUsd: null }),
      400,
      'validation_error',
    );
    expect(bare.details.issues[0].message).toMatch(/at least one/);
    expect((await call('DELETE', `/v1/pricing-rules/${rule.id}`, writer)).status).toBe(204);
    await error(call('DELETE', `/v1/pricing-rules/${rule.id}`, writer), 404, 'not_found');
    await error(call('PATCH', `/v1/pricing-rules/${rule.id}`, writer, { priority: 2 }), 404, 'not_found');
  });

  it('refuses malformed money and rules with 400 naming the path', async () => {
    const list = await newList();
    const agent = await newAgent();
    const stranger = await signUp(h);
    const theirAgent = await newAgent({ name: 'theirs' }, bearer(await createKey(h, stranger, ['agents:write'])));
    const theirApp = await ok(
      call('POST', '/v1/apps', bearer(await createKey(h, stranger, ['apps:manage'])), {
        name: 'Theirs',
        slug: `theirs-${randomUUID().slice(0, 8)}`,
        agentId: theirAgent.id,
        form: { fields: [{ name: 'q', label: 'Question', type: 'text', required: true }] },
      }),
      201,
    );
    const cases: Array<[unknown, string]> = [
      [{ perRunUsd: -0.01, priority: 1 }, 'perRunUsd'],
      [{ perRunUsd: 1_000_001, priority: 1 }, 'perRunUsd'],
      [{ perRunUsd: '1', priority: 1 }, 'perRunUsd'],
      [{ inputPerMTokUsd: -1, priority: 1 }, 'inputPerMTokUsd'],
      [{ outputPerMTokUsd: null, markupPercent: 1, priority: 1 }, 'outputPerMTokUsd'],
      [{ markupPercent: -5, priority: 1 }, 'markupPercent'],
      [{ markupPercent: 100_001, priority: 1 }, 'markupPercent'],
      [{ markupPercent: 10 }, 'priority'],
      [{ markupPercent: 10, priority: 1.5 }, 'priority'],
      [{ markupPercent: 10, priority: -1 }, 'priority'],
      [{ markupPercent: 10, priority: 1, extra: true }, ''],
      [{ markupPercent: 10, priority: 1, match: { agent: agent.id } }, 'match'],
      [{ markupPercent: 10, priority: 1, match: { agentId: 'nope' } }, 'match.agentId'],
      [{ markupPercent: 10, priority: 1, match: { agentId: randomUUID() } }, 'match.agentId'],
      [{ markupPercent: 10, priority: 1, match: { agentId: theirAgent.id } }, 'match.agentId'],
      [{ markupPercent: 10, priority: 1, match: { modelId: 'builtin/nope' } }, 'match.modelId'],
      [{ markupPercent: 10, priority: 1, match: { appId: 'nope' } }, 'match.appId'],
      [{ markupPercent: 10, priority: 1, match: { appId: randomUUID() } }, 'match.appId'],
      [{ markupPercent: 10, priority: 1, match: { appId: theirApp.id } }, 'match.appId'],
      [{ priority: 1 }, ''],
    ];
    for (const [body, path] of cases) {
      const e = await error(call('POST', `/v1/price-lists/${list.id}/rules`, writer, body), 400, 'validation_error');
      expect([body, e.details.issues.map((i: { path: string }) => i.path)]).toEqual([body, [path]]);
    }
    // JSON has no Infinity, but a huge exponent parses as one
    const infinite = await h.request(`/v1/price-lists/${list.id}/rules`, {
      method: 'POST',
      headers: { ...writer, 'content-type': 'application/json' },
      body: '{"perRunUsd": 1e999, "priority": 1}',
    });
    expect(infinite.status).toBe(400);
    for (const body of [{}, { name: '' }, { name: 'x', isDefault: 'yes' }, { name: 'x', extra: 1 }]) {
      await error(call('POST', '/v1/price-lists', writer, body), 400, 'validation_error');
    }
    await error(call('PATCH', `/v1/price-lists/${list.id}`, writer, {}), 400, 'validation_error');
    expect((await ok(call('GET', `/v1/price-lists/${list.id}/rules`, writer), 200)).rules).toEqual([]);
  });

  it('rounds amounts to what is stored: micro-USD, and the markup to 4 decimal places', async () => {
    const list = await newList();
    const rule = await newRule(list.id, {
      perRunUsd: 0.1234567,
      inputPerMTokUsd: 0.0000004,
      markupPercent: 1.23456,
      priority: 1,
    });
    expect(rule).toMatchObject({ perRunUsd: 0.123457, inputPerMTokUsd: 0, markupPercent: 1.2346 });
    const patched = await ok(
      call('PATCH', `/v1/pricing-rules/${rule.id}`, writer, { outputPerMTokUsd: 2.0000005 }),
      200,
    );
    expect(patched.outputPerMTokUsd).toBe(2.000001);
  });

  it('quotes by the matching rule of highest priority, the markup on the service cost, in exact micros', async () => {
    const list = await newList();
    const echo = await newAgent({ name: 'echo' }); // builtin/echo: 0.001 per run, tokens free
    const other = await newAgent({ name: 'other' });
    const q = async (agentId: string, tokens = 'inputTokens=1000&outputTokens=2000') =>
      ok(quote(list.id, `agentId=${agentId}&${tokens}`), 200);

    // no rule: the service's own cost, no rule named
    expect(await q(echo.id)).toEqual({ priceUsd: 0.001, ruleId: null });
    const catchAll = await newRule(list.id, { markupPercent: 50, priority: 0 });
    expect(await q(echo.id)).toEqual({ priceUsd: 0.0015, ruleId: catchAll.id });
    const scripted = await newRule(list.id, { match: { modelId: 'builtin/scripted' }, perRunUsd: 9, priority: 100 });
    expect((await q(echo.id)).ruleId).toBe(catchAll.id); // another model's rule never matches
    const forEcho = await newRule(list.id, {
      match: { agentId: echo.id },
      perRunUsd: 0.25,
      inputPerMTokUsd: 3,
      outputPerMTokUsd: 15,
      priority: 5,
    });
    // 0.25 + 1000 × 3 / 1e6 + 2000 × 15 / 1e6
    expect(await q(echo.id)).toEqual({ priceUsd: 0.283, ruleId: forEcho.id });
    expect(await q(other.id)).toEqual({ priceUsd: 0.0015, ruleId: catchAll.id });
    // own prices and a markup add up: 0.25 + 0.003 + 0.03 + 0.001 × 1.1
    await ok(call('PATCH', `/v1/pricing-rules/${forEcho.id}`, writer, { markupPercent: 10 }), 200);
    expect(await q(echo.id)).toEqual({ priceUsd: 0.2841, ruleId: forEcho.id });
    // equal priority: the more specific rule wins
    const sameLevel = await newRule(list.id, {
      match: { agentId: echo.id, modelId: 'builtin/echo' },
      markupPercent: 0,
      priority: 5,
    });
    expect(await q(echo.id)).toEqual({ priceUsd: 0.001, ruleId: sameLevel.id });
    await ok(call('PATCH', `/v1/pricing-rules/${scripted.id}`, writer, { match: { agentId: other.id } }), 200);
    expect(await q(other.id)).toEqual({ priceUsd: 9, ruleId: scripted.id });

    // exact at the limits: 999,999,999 tokens at 999,999.999999 per million is 999,999,998.999000000000001
    const exact = await newList({ name: 'exact' });
    const top = await newRule(exact.id, { inputPerMTokUsd: 999_999.999999, priority: 1 });
    const big = await ok(quote(exact.id, `agentId=${echo.id}&inputTokens=999999999`), 200);
    expect(big.priceUsd).toBe(999999998.999);
    // 0.001 per run and 1 token at 2.5 per million is 1002.5 µ$ exactly, rounded half up to 1003 µ$ (in
    // floating point, (0.001 + 2.5 / 1e6) × 1e6 is 1002.4999999999999 and would round down)
    await ok(call('PATCH', `/v1/pricing-rules/${top.id}`, writer, { perRunUsd: 0.001, inputPerMTokUsd: 2.5 }), 200);
    expect((await ok(quote(exact.id, `agentId=${echo.id}&inputTokens=1`), 200)).priceUsd).toBe(0.001003);
    // a markup that leaves a fraction of a micro rounds half up: 1000 µ$ × 1.000_5 = 1000.5 µ$ → 1001 µ$
    const half = await newList({ name: 'half' });
    await newRule(half.id, { markupPercent: 0.05, priority: 1 });
    expect((await ok(quote(half.id, `agentId=${echo.id}`), 200)).priceUsd).toBe(0.001001);
    // tokens default to 0
    expect((await ok(quote(list.id, `agentId=${other.id}`), 200)).priceUsd).toBe(9);
  });

  it('answers quote errors: 400 for the query, 404 for the list', async () => {
    const list = await newList();
    const agent = await newAgent();
    const stranger = await signUp(h);
    const theirAgent = await newAgent({ name: 'theirs' }, bearer(await createKey(h, stranger, ['agents:write'])));
    for (const [query, path] of [
      ['', 'agentId'],
      ['agentId=nope', 'agentId'],
      [`agentId=${randomUUID()}`, 'agentId'],
      [`agentId=${theirAgent.id}`, 'agentId'],
      [`agentId=${agent.id}&inputTokens=-1`, 'inputTokens'],
      [`agentId=${agent.id}&outputTokens=1.5`, 'outputTokens'],
      [`agentId=${agent.id}&inputTokens=1000000001`, 'inputTokens'],
      [`agentId=${agent.id}&inputTokens=abc`, 'inputTokens'],
      [`agentId=${agent.id}&inputToken=5`, ''],
    ]) {
      const e = await error(quote(list.id, query), 400, 'validation_error');
      expect([query, e.details.issues.map((i: { path: string }) => i.path)]).toEqual([query, [path]]);
    }
    await error(quote(randomUUID(), `agentId=${agent.id}`), 404, 'not_found');
    await h.request(`/v1/agents/${agent.id}`, { method: 'DELETE', headers: writer });
    await error(quote(list.id, `agentId=${agent.id}`), 400, 'validation_error');
  });

  it("answers 404 for another workspace's lists and rules on every route", async () => {
    const list = await newList();
    const rule = await newRule(list.id, { markupPercent: 1, priority: 1 });
    const agent = await newAgent();
    const stranger = await signUp(h);
    const theirs = bearer(await createKey(h, stranger, ['agents:read', 'agents:write', 'usage:read']));
    const theirAgent = await newAgent({ name: 'theirs' }, theirs);
    for (const [method, path, body] of [
      ['GET', `/v1/price-lists/${list.id}`],
      ['PATCH', `/v1/price-lists/${list.id}`, { isDefault: true }],
      ['DELETE', `/v1/price-lists/${list.id}`],
      ['GET', `/v1/price-lists/${list.id}/rules`],
      ['POST', `/v1/price-lists/${list.id}/rules`, { markupPercent: 1, priority: 1 }],
      ['GET', `/v1/price-lists/${list.id}/quote?agentId=${theirAgent.id}`],
      ['PATCH', `/v1/pricing-rules/${rule.id}`, { priority: 9 }],
      ['DELETE', `/v1/pricing-rules/${rule.id}`],
      ['GET', `/v1/price-lists/${randomUUID()}`],
      ['GET', '/v1/price-lists/not-a-uuid'],
      ['PATCH', '/v1/pricing-rules/not-a-uuid', { priority: 9 }],
    ] as Array<[string, string, unknown?]>) {
      await error(call(method, path, theirs, body), 404, 'not_found');
    }
    expect((await ok(call('GET', '/v1/price-lists', theirs), 200)).priceLists).toEqual([]);
    const day = new Date().toISOString().slice(0, 10);
    const usage = await error(
      call('GET', `/v1/usage?from=${day}&to=${day}&priceListId=${list.id}`, theirs),
      400,
      'validation_error',
    );
    expect(usage.details.issues[0].path).toBe('priceListId');
    expect(await ok(quote(list.id, `agentId=${agent.id}`), 200)).toEqual({ priceUsd: 0.00101, ruleId: rule.id });
    expect((await ok(call('GET', `/v1/price-lists/${list.id}/rules`, writer), 200)).rules[0].priority).toBe(1);
  });

  it('needs agents:read to read and quote, agents:write to change, for keys and session roles', async () => {
    const list = await newList();
    const agent = await newAgent();
    const rule = await newRule(list.id, { markupPercent: 1, priority: 1 });
    const reader = bearer(await createKey(h, owner, ['agents:read']));
    const usageOnly = bearer(await createKey(h, owner, ['usage:read']));
    const member = await signUp(h);
    const admin = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const session = (a: Account) => ({ cookie: a.cookie, 'X-Workspace-Id': owner.workspaceId });
    const reads: Array<[string, string]> = [
      ['GET', '/v1/price-lists'],
      ['GET', `/v1/price-lists/${list.id}`],
      ['GET', `/v1/price-lists/${list.id}/rules`],
      ['GET', `/v1/price-lists/${list.id}/quote?agentId=${agent.id}`],
    ];
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/v1/price-lists', { name: 'n' }],
      ['PATCH', `/v1/price-lists/${list.id}`, { name: 'n' }],
      ['POST', `/v1/price-lists/${list.id}/rules`, { perRunUsd: 1, priority: 2 }],
      ['PATCH', `/v1/pricing-rules/${rule.id}`, { priority: 3 }],
      ['DELETE', `/v1/pricing-rules/${rule.id}`],
      ['DELETE', `/v1/price-lists/${list.id}`],
    ];
    for (const [method, path] of reads) {
      await error(call(method, path, usageOnly), 403, 'forbidden');
      expect((await call(method, path, reader)).status).toBe(200);
      expect((await call(method, path, session(member))).status).toBe(200);
    }
    for (const [method, path, body] of writes) {
      await error(call(method, path, reader, body), 403, 'forbidden');
      await error(call(method, path, session(member), body), 403, 'forbidden');
    }
    const statuses: number[] = [];
    for (const [method, path, body] of writes) statuses.push((await call(method, path, session(admin), body)).status);
    expect(statuses).toEqual([201, 200, 201, 200, 204, 204]);
  });
});
