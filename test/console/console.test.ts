/**
 * The console end to end, in a real headless Chromium against the REAL service (API serving the built
 * console, Temporal worker, PostgreSQL): what a person does, page by page. Every page is screenshotted
 * (desktop and 375 px) under `.data/test/screenshots` and checked with axe-core (docs/console.md).
 */
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addMember, signUp, uniqueEmail, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { mailTo } from '../helpers/mailDrop';
import { startReceiver } from '../helpers/receiver';
import { startRunStack } from '../helpers/worker';
import { checkPage, ensureConsoleBuilt, launch } from './browser';
import { pollUntil } from '../helpers/poll';

jest.setTimeout(120_000);

let h: Harness;
let stopStack: () => Promise<void>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const email = uniqueEmail('console');
const password = `pw-${randomBytes(8).toString('hex')}`;
let runId = '';
const TEMPORAL_UI = `http://127.0.0.1:${process.env.SVC_TEMPORAL_UI_PORT ?? 8243}`;

beforeAll(async () => {
  ensureConsoleBuilt();
  // the first delivery fails all its 3 attempts, so that it can be redelivered; then the receiver takes it
  receiver = await startReceiver((n, _req, res) => void res.writeHead(n < 3 ? 500 : 204).end());
  // the console is served by this API at its public URL, whose origin the configuration always allows
  ({ h, stop: stopStack } = await startRunStack({ allowPrivateWebhooks: true, temporalUiUrl: TEMPORAL_UI }));
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stopStack?.();
  await receiver?.close();
});

const go = (path: string) => page.goto(`${h.url}/console${path}`);

/** A request as the browser's session (no Origin header, so the CSRF rule does not apply). */
async function asSession(path: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  const cookies = await context.cookies(h.url);
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return h.request(path, { method: init.method ?? 'GET', headers: { cookie }, json: init.json });
}

describe('console', () => {
  it('signs up, shows the unverified banner, and verifies the e-mail from the link', async () => {
    await go('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkPage(page, 'sign-in');

    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Name (optional)').fill('Console Tester');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password (at least 8 characters)').fill(password);
    await checkPage(page, 'sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await page.getByText('Nothing is waiting for you.').waitFor();
    await expectText(page.locator('.banner'), /not verified.*at most 3 runs/s);
    await checkPage(page, 'inbox-empty');

    // the link of the sign-up mail (written to a file without SMTP) lands on the console's page
    const mail = await mailTo(h, email);
    const token = /verify-email\?token=([^\s"]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();
    await page.goto(`${h.url}/verify-email?token=${token}`);
    await page.getByText(`${email} is verified`).waitFor();
    await checkPage(page, 'verify-email');
    await go('/inbox');
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(await page.locator('.banner').count()).toBe(0);
  });

  it('creates an agent on the reviewed-writer preset and saves a new version', async () => {
    await go('/agents');
    await page.getByText('No agents yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Writer');
    await page.getByLabel('Preset').selectOption('reviewed-writer');
    await checkPage(page, 'agents');
    await page.getByRole('button', { name: 'Create agent' }).click();

    await page.getByRole('heading', { name: 'Writer' }).waitFor();
    await expectText(page.locator('main'), /Version 1 · model builtin\/scripted · preset reviewed-writer/);
    await page.getByLabel('Instructions').fill('Write for the audience you are given.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectText(page.locator('main'), /Version 2 · model/);
    await page.getByRole('cell', { name: '2', exact: true }).waitFor();
    await checkPage(page, 'agent-detail');
  });

  it('starts a run, answers, approves and corrects it in the inbox, and sees it succeed corrected', async () => {
    await go('/runs');
    await page.getByText('Start a run').click();
    await page.getByLabel('Agent to run').selectOption({ label: 'Writer' });
    const input = page.getByLabel('Input (JSON object)');
    await input.fill('{ "script": [');
    await page.getByText(/Invalid JSON/).waitFor();
    expect(await page.getByRole('button', { name: 'Start run' }).isDisabled()).toBe(true);
    await input.fill(JSON.stringify({ script: [{ ask: 'Who is the audience?' }, { final: { draft: 'Hello' } }] }));
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/console\/runs\/[0-9a-f-]{36}$/);
    runId = page.url().split('/').pop()!;
    await page.locator('.badge', { hasText: 'Needs input' }).first().waitFor();
    await checkPage(page, 'run-waiting');

    await go('/inbox');
    await page.getByText('Who is the audience?').waitFor();
    await page.getByLabel('Your answer').fill('engineers');
    await checkPage(page, 'inbox-input');
    await page.getByRole('button', { name: 'Send answer' }).click();

    await page.getByLabel('Proposed output').first().waitFor();
    await expectText(page.getByLabel('Proposed output').first(), /"draft": "Hello"/);
    await checkPage(page, 'inbox-approval');
    await page.getByRole('button', { name: 'Approve' }).click();

    const corrected = page.getByLabel('Corrected output (JSON)');
    await corrected.waitFor();
    await corrected.fill('{ "draft": ');
    await page.getByText(/Invalid JSON/).waitFor();
    expect(await page.getByRole('button', { name: 'Accept with correction' }).isDisabled()).toBe(true);
    await corrected.fill(JSON.stringify({ draft: 'Hello, engineers' }));
    await page.getByText('Valid JSON').waitFor();
    await checkPage(page, 'inbox-review');
    await page.getByRole('button', { name: 'Accept with correction' }).click();
    await page.getByText('Nothing is waiting for you.').waitFor();

    await go(`/runs/${runId}`);
    await page.locator('.badge', { hasText: 'Succeeded' }).waitFor();
    await expectText(page.getByTestId('run-output'), /"draft": "Hello, engineers"/);
    await page.getByText('run.status').first().waitFor();
    expect(await page.getByRole('link', { name: 'Open in Temporal UI' }).getAttribute('href')).toBe(
      `${TEMPORAL_UI}/namespaces/${h.config.temporal.namespace}/workflows/run-${runId}`,
    );
    // the printable report, and the files the run produced (none for this one)
    expect(await page.getByRole('link', { name: 'Printable report' }).getAttribute('href')).toBe(
      `/v1/runs/${runId}/report?format=html`,
    );
    await page.getByText('This run produced no files.').waitFor();
    await checkPage(page, 'run-detail');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await page.getByText('Thank you for your feedback.').waitFor();

    await go('/runs?status=succeeded');
    await page.getByRole('link', { name: runId.slice(0, 8) }).waitFor();
    await checkPage(page, 'runs');
  });

  it('shows a gate answered elsewhere as already answered', async () => {
    const res = await asSession('/v1/runs', {
      method: 'POST',
      json: { agentId: await agentId(), input: { script: [{ ask: 'Second question?' }, { final: { n: 2 } }] } },
    });
    expect(res.status).toBe(201);
    const run = (await res.json()) as { id: string };
    await go('/inbox');
    await page.getByText('Second question?').waitFor();
    await page.getByLabel('Your answer').fill('from the console');
    // hold the inbox's polling until the page has shown the conflict, so it still shows the gate it read
    // when someone else answers it
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/runs?status=*', async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    // someone else answers the same gate first
    const waiting = (await (await asSession(`/v1/runs/${run.id}`)).json()) as { pendingAction: { id: string } | null };
    expect(waiting.pendingAction).not.toBeNull();
    const other = await asSession(`/v1/runs/${run.id}/input`, {
      method: 'POST',
      json: { answer: 'from elsewhere', actionId: waiting.pendingAction!.id },
    });
    expect(other.status).toBe(202);
    await page.getByRole('button', { name: 'Send answer' }).click();
    await page.getByText(/Already answered/).waitFor();
    release();
    await page.unroute('**/v1/runs?status=*');

    await go(`/runs/${run.id}`);
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.locator('.badge', { hasText: 'Cancelled' }).waitFor();
  });

  it('mints a key, shows it once with a copy button, and revokes it after confirmation', async () => {
    await go('/keys');
    await page.getByText('No API keys yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('ci');
    await page.getByLabel('usage:read').check();
    await page.getByLabel('Monthly spend cap in USD (optional)').fill('5');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('Key ci');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^svc_live_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await page.getByTestId('api-key').filter({ hasText: 'ci' }).waitFor();
    await checkPage(page, 'keys');
    expect((await h.request('/v1/usage/balance', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke ci' }).click();
    await page.getByRole('button', { name: 'Yes, revoke ci' }).click();
    await page.getByText('No API keys yet.').waitFor();
    expect((await h.request('/v1/usage/balance', { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it('subscribes a webhook and shows its delivery, and redelivers it', async () => {
    await go('/webhooks');
    await page.getByText('No webhook subscriptions yet.').waitFor();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('run.needs_input').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('Subscribed.').waitFor();

    const res = await asSession('/v1/runs', {
      method: 'POST',
      json: { agentId: await agentId(), input: { script: [{ ask: 'Hooked?' }] } },
    });
    expect(res.status).toBe(201);
    await pollUntil(30_000, () => receiver.received.length >= 3, Boolean, 'the webhook delivery attempts');

    await page.getByRole('button', { name: 'Show deliveries' }).click();
    const row = page.getByTestId('delivery').filter({ hasText: 'run.needs_input' });
    await row.filter({ hasText: 'failed' }).waitFor({ timeout: 30_000 });
    await expectText(row, /500.*500.*500/s);
    await checkPage(page, 'webhooks');
    await row.getByRole('button', { name: 'Redeliver' }).click();
    await pollUntil(30_000, () => receiver.received.length >= 4, Boolean, 'the redelivery');
    await row.filter({ hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    await expectText(row, /204/);
    // a finished delivery, succeeded included, may be sent again
    await row.getByRole('button', { name: 'Redeliver' }).waitFor();
  });

  it('uploads a file with progress, into a folder, and renames, moves, downloads and deletes it', async () => {
    await go('/files');
    await page.getByText('No files here.').waitFor();
    await page.getByLabel('New folder name').fill('reports');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByRole('button', { name: 'reports/' }).waitFor();

    const bytes = randomBytes(3 * 1024 * 1024);
    await page.setInputFiles('#upload-input', {
      name: 'notes.bin',
      mimeType: 'application/octet-stream',
      buffer: bytes,
    });
    await page.getByText('notes.bin: uploaded').waitFor();
    expect(
      await page
        .locator('progress')
        .first()
        .evaluate((p) => (p as unknown as { value: number }).value),
    ).toBe(1);
    const card = page.getByTestId('file').filter({ hasText: 'notes.bin' });
    await expectText(card, /3\.0 MiB/);
    await checkPage(page, 'files');

    const downloading = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download notes.bin' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('notes.bin');

    await card.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name for notes.bin').fill('notes-2026.bin');
    await page.getByRole('button', { name: 'Save name' }).click();
    const renamed = page.getByTestId('file').filter({ hasText: 'notes-2026.bin' });
    await renamed.waitFor();

    await renamed.getByRole('button', { name: 'Move' }).click();
    await page.getByLabel('Move notes-2026.bin to').selectOption({ label: 'reports' });
    await page.getByRole('button', { name: 'Move here' }).click();
    await page.getByText('No files here.').waitFor();
    await page.getByRole('button', { name: 'reports/' }).click();
    const moved = page.getByTestId('file').filter({ hasText: 'notes-2026.bin' });
    await moved.waitFor();

    await moved.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('No files here.').waitFor();

    // drag and drop: a file dropped on the zone is uploaded into the folder on screen
    const dropped = await page.evaluateHandle(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    })()`);
    await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: dropped });
    await page.getByText('dropped.txt: uploaded').waitFor();
    await page.getByTestId('file').filter({ hasText: 'dropped.txt' }).waitFor();

    // a folder moves too: archive/ from the root into reports/
    await page.getByRole('button', { name: 'All files (root)' }).click();
    await page.getByLabel('New folder name').fill('archive');
    await page.getByRole('button', { name: 'Create folder' }).click();
    const archive = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'archive/' }) });
    await archive.getByRole('button', { name: 'Move' }).click();
    await page.getByLabel('Move folder archive to').selectOption({ label: 'reports' });
    await page.getByRole('button', { name: 'Move here' }).click();
    await page.getByRole('button', { name: 'archive/' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'reports/' }).click();
    await page.getByRole('button', { name: 'archive/' }).waitFor();
  });

  it('shows usage: balance, plan, a chart per day and a table per agent', async () => {
    await go('/usage');
    await page.getByTestId('balance').waitFor();
    expect(await page.title()).toBe('Usage · svc console');
    await page.locator('.recharts-surface').first().waitFor();
    await page.getByRole('cell', { name: 'Writer' }).waitFor();
    await checkPage(page, 'usage');
  });

  it('switches workspaces, where a member sees no key management', async () => {
    const other: Account = await signUp(h, { name: 'Other Owner' });
    const me = (await (await asSession('/v1/console/me')).json()) as { user: { id: string } };
    await addMember(h, me.user.id, other.workspaceId, 'member');

    await go('/inbox');
    const switcher = page.getByLabel('Workspace', { exact: true });
    await switcher.waitFor();
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(1);
    await switcher.selectOption(other.workspaceId);
    await page.getByText('Nothing is waiting for you.').waitFor();
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await checkPage(page, 'inbox-member');
    await go('/keys');
    await page.getByText('Only a workspace owner manages API keys.').waitFor();
  });

  it('signs out and back in', async () => {
    await go('/inbox');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Request id/ })
      .waitFor();
    await checkPage(page, 'sign-in-error');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  });
});

async function agentId(): Promise<string> {
  const res = await asSession('/v1/agents');
  const body = (await res.json()) as { agents: { id: string; name: string }[] };
  return body.agents.find((a) => a.name === 'Writer')!.id;
}

async function expectText(locator: ReturnType<Page['locator']>, pattern: RegExp): Promise<void> {
  await pollUntil(
    20_000,
    async () => (await locator.textContent()) ?? '',
    (text) => pattern.test(text),
    `text ${pattern}`,
  );
}
