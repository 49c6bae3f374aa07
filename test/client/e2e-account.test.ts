/**
 * `@svc/client` against the REAL service: usage and balance, API key management, members' roles, and every error family
 * the service produces mapped to its SvcError subclass with code, status, details and requestId —
 * including a real 429 from the per-key rate limit, retried after its Retry-After.
 */
import { randomUUID } from 'node:crypto';
import {
  AuthenticationError,
  BillingError,
  ConflictError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  Svc,
  SvcError,
  ValidationError,
} from '../../client/src/index.js';
import { API_KEY_FIELDS, CREATED_API_KEY_FIELDS, WORKSPACE_MEMBER_FIELDS } from '../../client/src/schema.js';
import { runAdmin } from '../../scripts/admin';
import { addMember, freshRateWindow, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { startRunStack } from '../helpers/worker';
import { clientWorkspace, rejectionOf, today } from './e2e-helpers';

let h: Harness;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ h, stop } = await startRunStack());
}, 120_000);
afterAll(() => stop?.());

/** The error's requestId is the one the service put in the envelope and the X-Request-Id header. */
function expectRequestId(err: SvcError): void {
  expect(err.requestId).toEqual(expect.any(String));
  expect(err.requestId).toBe(err.headers?.get('x-request-id'));
}

describe('client e2e: usage and balance', () => {
  it('reports a finished run in usage, by day and by agent, and charges it to the balance', async () => {
    const { svc } = await clientWorkspace(h);
    const before = await svc.usage.balance();
    expect(before).toEqual({
      balanceUsd: h.config.trialCreditsUsd,
      plan: 'scale',
      entitlements: { apiRateLimitPerMin: 1200 },
    });
    const empty = await svc.usage.get({ from: today(), to: today() });
    expect(empty).toMatchObject({ from: today(), to: today(), runs: 0, costUsd: 0, byDay: [], byAgent: [] });

    const echo = await svc.agents.create({ name: 'Echo', presetId: 'general-assistant' });
    const run = await svc.runs.wait((await svc.runs.create({ agentId: echo.id, input: { hi: 1 } })).id, {
      pollMs: 100,
    });
    expect(run.status).toBe('succeeded');

    const usage = await svc.usage.get({ from: new Date(Date.now() - 86_400_000), to: new Date() });
    expect(usage).toMatchObject({ runs: 1, costUsd: 0.001 });
    expect(usage.inputTokens).toBe(run.usage.inputTokens);
    expect(usage.outputTokens).toBe(run.usage.outputTokens);
    expect(usage.byDay).toEqual([expect.objectContaining({ date: today(), runs: 1, costUsd: 0.001 })]);
    expect(usage.byAgent).toEqual([expect.objectContaining({ agentId: echo.id, runs: 1, costUsd: 0.001 })]);
    const after = await svc.usage.balance();
    expect(after.balanceUsd).toBeCloseTo(before.balanceUsd - 0.001, 6);

    const backwards = await rejectionOf(svc.usage.get({ from: '2024-02-01', to: '2024-01-01' }));
    expect(backwards).toBeInstanceOf(ValidationError);
    expect(backwards).toMatchObject({ status: 400, code: 'validation_error' });
  });
});

describe('client e2e: API keys', () => {
  it('creates a key that works with its scopes only, lists it without its plaintext, caps and revokes it', async () => {
    const { svc } = await clientWorkspace(h);
    const created = await svc.apiKeys.create({ name: 'reader', scopes: ['runs:read'], monthlySpendCapUsd: 2 });
    expect(Object.keys(created).sort()).toEqual(Object.keys(CREATED_API_KEY_FIELDS).sort());
    expect(created).toMatchObject({ name: 'reader', scopes: ['runs:read'], monthlySpendCapUsd: 2 });
    expect(created.key).toMatch(/^svc_live_[0-9A-Za-z]+$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));

    const listed = (await svc.apiKeys.list()).find((k) => k.id === created.id)!;
    expect(Object.keys(listed).sort()).toEqual(Object.keys(API_KEY_FIELDS).sort());
    expect(listed).toMatchObject({ prefix: created.prefix, monthlySpendCapUsd: 2, spentThisMonthUsd: 0 });
    expect(await svc.apiKeys.setSpendCap(created.id, null)).toMatchObject({ id: created.id, monthlySpendCapUsd: null });

    const reader = new Svc({ apiKey: created.key, baseUrl: h.url });
    await expect(reader.runs.list().toArray()).resolves.toEqual([]);
    const forbidden = await rejectionOf(reader.agents.create({ name: 'nope' }));
    expect(forbidden).toBeInstanceOf(PermissionError);
    expect(forbidden).toMatchObject({ status: 403, code: 'forbidden' });
    expectRequestId(forbidden);

    await svc.apiKeys.revoke(created.id);
    expect((await svc.apiKeys.list()).map((k) => k.id)).not.toContain(created.id);
    const revoked = await rejectionOf(reader.runs.list().toArray());
    expect(revoked).toBeInstanceOf(AuthenticationError);
    expect(revoked).toMatchObject({ status: 401, code: 'unauthorized' });
    const twice = await rejectionOf(svc.apiKeys.revoke(created.id));
    expect(twice).toBeInstanceOf(NotFoundError);
  });

  it('lists every key across the service pages (more than one page of 100)', async () => {
    const { svc } = await clientWorkspace(h);
    const made = await Promise.all(
      Array.from({ length: 105 }, (_, i) => svc.apiKeys.create({ name: `k${i}`, scopes: ['runs:read'] })),
    );
    const ids = (await svc.apiKeys.list()).map((k) => k.id);
    expect(ids).toHaveLength(106); // 105 plus the test's own key
    expect(new Set(ids).size).toBe(106);
    expect(ids).toEqual(expect.arrayContaining(made.map((k) => k.id)));
  });
});

describe('client e2e: workspace members', () => {
  it("changes a member's role, which their session then has; refuses a stranger, the last owner and a lesser key", async () => {
    const { svc, account } = await clientWorkspace(h);
    const colleague = await signUp(h, { name: 'Colleague' });
    await addMember(h, colleague.userId, account.workspaceId, 'member');

    const promoted = await svc.workspace.setMember(colleague.userId, { role: 'admin' });
    expect(Object.keys(promoted).sort()).toEqual(Object.keys(WORKSPACE_MEMBER_FIELDS).sort());
    expect(promoted).toEqual({ userId: colleague.userId, email: colleague.email, name: 'Colleague', role: 'admin' });
    const me = await (await h.request('/v1/console/me', { headers: { cookie: colleague.cookie } })).json();
    expect(me.workspaces).toContainEqual(expect.objectContaining({ id: account.workspaceId, role: 'admin' }));

    const stranger = await rejectionOf(svc.workspace.setMember(randomUUID(), { role: 'admin' }));
    expect(stranger).toBeInstanceOf(NotFoundError);
    const lastOwner = await rejectionOf(svc.workspace.setMember(account.userId, { role: 'member' }));
    expect(lastOwner).toBeInstanceOf(ConflictError);
    expect(lastOwner).toMatchObject({ status: 409, code: 'conflict' });

    const reader = new Svc({
      apiKey: (await svc.apiKeys.create({ name: 'reader', scopes: ['runs:read'] })).key,
      baseUrl: h.url,
    });
    const lesser = await rejectionOf(reader.workspace.setMember(colleague.userId, { role: 'owner' }));
    expect(lesser).toBeInstanceOf(PermissionError);
    expect(await svc.workspace.setMember(colleague.userId, { role: 'admin' })).toMatchObject({ role: 'admin' });
  });
});

describe('client e2e: errors from the real service', () => {
  it('maps 404, 400, 409 and 402 to their classes with code, status, details and requestId', async () => {
    const { svc, account } = await clientWorkspace(h);
    const missing = await rejectionOf(svc.runs.get(randomUUID()));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expectRequestId(missing);
    // the caller's X-Request-Id is echoed and lands on the error
    const traced = await rejectionOf(svc.agents.get(randomUUID(), { headers: { 'x-request-id': 'trace-e2e-1' } }));
    expect(traced).toMatchObject({ status: 404, requestId: 'trace-e2e-1' });

    const invalid = await rejectionOf(svc.agents.create({ name: '' }));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_error' });
    expect(invalid.details.issues).toEqual([expect.objectContaining({ path: 'name' })]);

    const echo = await svc.agents.create({ name: 'Echo', presetId: 'general-assistant' });
    const run = await svc.runs.wait((await svc.runs.create({ agentId: echo.id })).id, { pollMs: 100 });
    const conflict = await rejectionOf(svc.runs.cancel(run.id));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ status: 409, code: 'run.invalid_state', details: { status: 'succeeded' } });
    expectRequestId(conflict);
    const first = await svc.runs.create({ agentId: echo.id, input: { a: 1 } }, { idempotencyKey: 'ik-reused' });
    const replay = await svc.runs.create({ agentId: echo.id, input: { a: 1 } }, { idempotencyKey: 'ik-reused' });
    expect(replay.id).toBe(first.id);
    const reused = await rejectionOf(
      svc.runs.create({ agentId: echo.id, input: { a: 2 } }, { idempotencyKey: 'ik-reused' }),
    );
    expect(reused).toBeInstanceOf(ConflictError);
    expect(reused).toMatchObject({ status: 409, code: 'conflict' });
    await svc.runs.wait(first.id, { pollMs: 100 }); // charged before the balance is emptied

    await runAdmin(h.orm, ['credits:set', account.workspaceId, '0']);
    const broke = await rejectionOf(svc.runs.create({ agentId: echo.id, input: {} }));
    expect(broke).toBeInstanceOf(BillingError);
    expect(broke).toMatchObject({ status: 402, code: 'billing.insufficient_credits' });
    expect(broke.details).toEqual({ required: expect.any(Number), available: 0 });
    expect(broke.details.required).toBeGreaterThan(0);
    expectRequestId(broke);
  }, 60_000);

  it('gets a RateLimitError with retryAfter from a free_trial key past 30/min, and a retry succeeds after it', async () => {
    const { svc } = await clientWorkspace(h, { plan: 'free_trial', client: { maxRetries: 0 } });
    // 31 local requests take well under a second; 8 s left in the window keep them in one window, and
    // the retry below sleeps only until that window ends
    await freshRateWindow(8);
    for (let i = 0; i < 30; i++) await svc.usage.balance();
    const limited = await rejectionOf(svc.usage.balance());
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited', message: 'Rate limit exceeded' });
    expect(Number.isInteger(limited.retryAfter)).toBe(true);
    expect(limited.retryAfter).toBeGreaterThanOrEqual(1);
    expect(limited.retryAfter).toBeLessThanOrEqual(60);
    expectRequestId(limited);

    // with one retry the client sleeps Retry-After and the next window lets the call through
    const started = Date.now();
    const balance = await svc.usage.balance({ maxRetries: 1 });
    expect(balance.entitlements.apiRateLimitPerMin).toBe(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual((limited.retryAfter - 1) * 1000);
  }, 150_000);
});
