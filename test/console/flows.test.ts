/**
 * The console's flows, its navigation and search, and the console on a port of its own, in a real headless
 * Chromium against the real service (docs/console.md): a flow built in the step editor with an approval step
 * and a webhook trigger, fired by a real POST, approved in the inbox, its timeline watched to the end.
 */
import { createServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../platform/config';
import { call, upload } from '../finance/helpers';
import { uniqueEmail } from '../helpers/factories';
import { pollUntil } from '../helpers/poll';
import { ok } from '../helpers/responses';
import { startReceiver } from '../helpers/receiver';
import { startRunStack } from '../helpers/worker';
import { checkPage, ensureConsoleBuilt, launch } from './browser';
import { startConsole, type ConsoleSession } from './consoleSession';

jest.setTimeout(120_000);

describe('console flows', () => {
  let s: ConsoleSession;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let flowId = '';
  let webhookUrl = '';

  beforeAll(async () => {
    receiver = await startReceiver((_n, _req, res) => void res.writeHead(200).end('{"ok":true}'));
    // the http step posts to the receiver on 127.0.0.1, which the egress guard refuses unless allowed
    s = await startConsole({ allowPrivateEgress: true });
  }, 180_000);
  afterAll(async () => {
    await s?.stop();
    await receiver?.close();
  });

  it('groups the navigation and folds it behind a menu button at 375 px', async () => {
    const { page } = s;
    await s.go('/flows');
    await page.getByText('No flows yet.').waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Run' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Flows' }).getAttribute('aria-current')).toBe('page');
    // a section away from the current page folds and unfolds
    await nav.getByRole('button', { name: 'Workspace' }).click();
    expect(await nav.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await nav.getByRole('button', { name: 'Workspace' }).press('Enter');
    await nav.getByRole('link', { name: 'API keys' }).waitFor();
    await checkPage(page, 'flows-empty');

    await page.setViewportSize({ width: 375, height: 800 });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(await nav.isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('finds an agent with the header search, focused by /', async () => {
    const { page } = s;
    const res = await s.asSession('/v1/agents', {
      method: 'POST',
      json: { name: 'Searchable helper', presetId: 'general-assistant' },
    });
    expect(res.status).toBe(201);
    const agent = (await res.json()) as { id: string };
    await s.go('/flows');
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
    await page.keyboard.press('/');
    const box = page.getByRole('searchbox', { name: 'Search the workspace' });
    expect(await page.evaluate('document.activeElement?.getAttribute("type")')).toBe('search');
    await page.keyboard.type('searchable');
    const results = page.getByRole('region', { name: 'Search results' });
    await results.getByRole('link', { name: 'Searchable helper' }).click();
    await page.waitForURL(`**/console/agents/${agent.id}`);
    await page.keyboard.press('/');
    await box.fill('no such thing at all');
    await results.getByText('Nothing matches').waitFor();
    await checkPage(page, 'search-empty');
    await page.keyboard.press('Escape');
    await results.waitFor({ state: 'detached' });
  });

  it('builds a flow in the step editor, showing the service’s problems at the step and field', async () => {
    const { page } = s;
    await s.go('/flows');
    await page.getByRole('link', { name: 'New flow' }).click();
    await page.getByRole('heading', { name: 'From a template' }).waitFor();
    await page.getByRole('radio', { name: /Approval-gated outbound call/ }).waitFor();
    await checkPage(page, 'flows-new-template');

    await page.getByRole('radio', { name: 'From scratch' }).check();
    await page.getByLabel('Name', { exact: true }).fill('Hooked approval');
    await page.getByLabel('Starts').selectOption('webhook');
    const steps = page.locator('li.step-card');
    await steps.nth(0).getByLabel('Message to the approver').fill('Ship ');
    await steps.nth(0).getByLabel('Insert a reference into the message of step 1').selectOption('{{trigger}}');
    expect(await steps.nth(0).getByLabel('Message to the approver').inputValue()).toBe('Ship {{trigger}}');
    await steps.nth(0).getByLabel('Message to the approver').fill('Ship {{trigger.title}}?');

    await page.getByRole('button', { name: '+ HTTP request' }).click();
    const post = steps.nth(1);
    await post.getByLabel('Step name').fill('notify');
    await post.getByLabel('URL', { exact: true }).fill(`${receiver.url}?after={{steps.later.output.x}}`);
    await post.getByLabel('Body (JSON, optional)').fill('{"title": "{{trigger.title}}"}');
    await page.getByRole('button', { name: 'Create flow' }).click();
    // the service refuses the reference to a step that does not exist, at that step's URL field
    await post.getByRole('alert').filter({ hasText: 'Unknown step "later"' }).waitFor();
    expect(await post.getByLabel('URL', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, 'flows-new-errors');

    await post.getByLabel('URL', { exact: true }).fill(receiver.url);
    await post
      .getByLabel('Body (JSON, optional)')
      .fill('{"title": "{{trigger.title}}", "decision": "{{steps.approve.output.approved}}"}');
    await page.getByRole('button', { name: 'Create flow' }).click();
    await page.getByRole('heading', { name: /Hooked approval/ }).waitFor();
    flowId = /\/flows\/([0-9a-f-]+)/.exec(page.url())![1];
    // the webhook URL is shown once, in the page the creation lands on
    webhookUrl = await page.getByLabel('Webhook URL').inputValue();
    expect(webhookUrl).toMatch(/\/hooks\/flows\/[A-Za-z0-9_-]+$/);
    await checkPage(page, 'flow-detail');
  });

  it('runs on a real POST to its webhook, waits in the inbox, and succeeds once approved', async () => {
    const { page } = s;
    const fired = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'v2' }),
    });
    expect(fired.status).toBe(202);
    const { flowRunId } = (await fired.json()) as { flowRunId: string };

    await s.go('/inbox');
    // no policy: anyone whose role may answer flow approvals is asked
    const mine = page.getByRole('list', { name: 'Flow approvals waiting on you' });
    const card = mine.locator('li.card', { hasText: `flow run ${flowRunId.slice(0, 8)}` });
    await card.getByText('Step approve asks: Ship v2?').waitFor();
    await checkPage(page, 'inbox-flow-approval');
    await card.getByLabel('Comment (optional)').fill('looks right');
    await card.getByRole('button', { name: 'Approve' }).click();
    // the answer was taken: "Decision sent." shows, unless the inbox's refetch has already dropped the card
    await Promise.any([card.getByText('Decision sent.').waitFor(), card.waitFor({ state: 'detached' })]);

    await s.go(`/flow-runs/${flowRunId}`);
    await page.getByRole('heading', { name: /Flow run .* Succeeded/ }).waitFor();
    const timeline = page.getByRole('list', { name: 'Steps timeline' });
    expect(await timeline.locator('li.flow-step-succeeded').count()).toBe(2);
    await timeline.getByText('Output').first().click();
    await timeline.getByText('"comment": "looks right"').waitFor();
    await checkPage(page, 'flow-run');
    const sent = (await pollUntil(5_000, () => receiver.received.at(-1)))!;
    expect(JSON.parse(sent.raw.toString())).toEqual({ title: 'v2', decision: true });
    // the inbox has nothing left to answer
    await s.go('/inbox');
    await page.getByText('Nothing is waiting for you.').waitFor();
  });

  it('splits flow approvals under a policy into waiting on you and on others, with the policy and approvals so far', async () => {
    const { page } = s;
    const waitingRun = async (name: string, approvalPolicy: Record<string, unknown>) => {
      const steps = [{ name: 'sign', type: 'approval', message: `${name}?`, approvalPolicy }];
      const flow = await ok(
        s.asSession('/v1/flows', { method: 'POST', json: { name, trigger: { type: 'manual' }, steps } }),
        201,
      );
      const run = await ok(s.asSession(`/v1/flows/${flow.id}/run`, { method: 'POST', json: {} }), 202);
      await pollUntil(
        20_000,
        async () => (await s.asSession(`/v1/flow-runs/${run.id}`)).json(),
        (r) => Boolean(r.pendingApproval),
      );
      return run.id as string;
    };
    const named = { approvers: { userIds: [s.account.userId] }, required: 1, forbidSelfApproval: false };
    const mineId = await waitingRun('Named', named);
    const theirsId = await waitingRun('Admins', { approvers: { roles: ['admin'] }, required: 2 });

    await s.go('/inbox');
    const mine = page
      .getByRole('list', { name: 'Flow approvals waiting on you' })
      .locator('li.card', { hasText: `flow run ${mineId.slice(0, 8)}` });
    await mine.getByText(`1 approval needed from user ${s.account.userId.slice(0, 8)}`).waitFor();
    const theirs = page
      .getByRole('list', { name: 'Flow approvals waiting on others' })
      .locator('li.card', { hasText: `flow run ${theirsId.slice(0, 8)}` });
    await theirs.getByText('2 approvals needed from admins; 2 still missing.').waitFor();
    await theirs.getByText('No approvals yet.').waitFor();
    await checkPage(page, 'inbox-flow-policies');

    await mine.getByRole('button', { name: 'Approve' }).click();
    const done = await pollUntil(
      20_000,
      async () => (await s.asSession(`/v1/flow-runs/${mineId}`)).json(),
      (r) => ['succeeded', 'failed'].includes(r.status),
    );
    expect(done.status).toBe('succeeded');
    await s.go(`/flow-runs/${theirsId}`);
    await page.getByLabel('Approval policy').getByText('2 approvals needed from admins').waitFor();
    await ok(s.asSession(`/v1/flow-runs/${theirsId}/cancel`, { method: 'POST' }), 202);
  });

  it('rotates the webhook URL, pauses and resumes, and cancels a run started by hand', async () => {
    const { page } = s;
    await s.go(`/flows/${flowId}`);
    await page.getByRole('heading', { name: /Hooked approval/ }).waitFor();
    expect(await page.getByLabel('Webhook URL').count()).toBe(0);
    await page.getByRole('button', { name: 'Rotate the webhook URL' }).click();
    const rotated = await page.getByLabel('Webhook URL').inputValue();
    expect(rotated).not.toBe(webhookUrl);
    expect((await fetch(webhookUrl, { method: 'POST' })).status).toBe(404);

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    expect((await fetch(rotated, { method: 'POST' })).status).toBe(409);
    expect(await page.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    await page.getByLabel('Trigger data (JSON object)').fill('{"title": "by hand"}');
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('heading', { name: /Flow run .* Waiting for approval/ }).waitFor();
    await page.getByText('Step approve asks: Ship by hand?').waitFor();
    await page.getByRole('button', { name: 'Cancel the flow run' }).click();
    await page.getByRole('heading', { name: /Flow run .* Cancelled/ }).waitFor();
    await s.go(`/flows/${flowId}`);
    const runs = page.getByRole('region', { name: 'Flow runs' });
    await runs.getByText('Cancelled').waitFor();
    await runs.getByText('Succeeded').waitFor();
  });

  it("shows a reconciliation's proposed matches in the inbox with their evidence, and approves them", async () => {
    const { page, h } = s;
    const session = { cookie: s.account.cookie };
    const bank = await upload(
      h,
      session,
      'date,description,amount,counterparty\n2026-10-20,ACME Corp payment,3000.00,ACME Corp\n2026-10-21,Coffee,-4.50,\n',
    );
    const mapping = { date: 'date', description: 'description', amount: 'amount', counterparty: 'counterparty' };
    await ok(call(h, 'POST', '/v1/finance/imports', session, { fileId: bank, format: 'csv', mapping }), 201);
    const receipts = await upload(h, session, 'date,vendor,amount\n2026-10-19,ACME Corp,"3,000.00"\n', 'receipts.csv');
    const body = { from: '2026-10-01', to: '2026-10-31', fileIds: [receipts] };
    const run = await ok(call(h, 'POST', '/v1/finance/reconciliations', session, body), 201);

    await s.go('/inbox');
    const card = page.locator('li.card', { hasText: `run ${run.id.slice(0, 8)}` });
    const table = card.getByRole('region', { name: 'Proposed matches' });
    await table.getByRole('cell', { name: 'receipts.csv', exact: true }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    await table.getByRole('cell', { name: /^3000\.00/ }).waitFor();
    await checkPage(page, 'inbox-reconciliation');
    await card.getByRole('button', { name: 'Approve all 1 matches' }).click();
    // "Decision sent." shows only until the inbox's refetch drops the card, which can come first: what stays
    // is the run going on without the person, and the card leaving the inbox
    const done = await pollUntil(
      20_000,
      async () => (await (await s.asSession(`/v1/runs/${run.id}`)).json()) as { status: string },
      (r) => r.status === 'succeeded',
      'the reconciliation run succeeded',
    );
    expect(done.status).toBe('succeeded');
    await card.waitFor({ state: 'detached' });
    const rows = await ok(call(h, 'GET', '/v1/finance/transactions?limit=10', session), 200);
    expect(rows.transactions.filter((t: any) => t.reconciled).map((t: any) => t.description)).toEqual([
      'ACME Corp payment',
    ]);
  });
});

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('the console on any port', () => {
  let browser: Browser | undefined;
  let stop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  it('takes writes at http://localhost:<PORT> with only PORT set, as a newcomer opens it', async () => {
    ensureConsoleBuilt();
    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env, PORT: String(port) };
    delete env.SVC_PUBLIC_URL;
    delete env.SVC_CONSOLE_ORIGINS;
    const config = loadConfig(env);
    expect(config.publicUrl).toBe(`http://127.0.0.1:${port}`);
    // the configuration as `PORT=<port> npm run dev` reads it, not widened by the test
    const stack = await startRunStack(
      { publicUrl: config.publicUrl, consoleOrigins: config.consoleOrigins },
      { listenPort: port },
    );
    stop = stack.stop;
    browser = await launch();
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`http://localhost:${port}/console/sign-up`);
    await page.getByLabel('E-mail').fill(uniqueEmail('port'));
    await page.getByLabel('Password (at least 8 characters)').fill('a-long-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();

    await page.goto(`http://localhost:${port}/console/agents`);
    await page.getByLabel('Name').fill('Port agent');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: /Port agent/ }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^http://localhost:${port}/console/agents/[0-9a-f-]+$`));
  });
});
