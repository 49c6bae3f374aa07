/**
 * A published app's public page in a real headless Chromium against the real service (API, worker,
 * PostgreSQL, Temporal): a visitor fills the form, submits it without any script, and watches the status
 * page refresh itself until the run succeeds with its output. The form has a file field: the visitor picks a
 * file, which reaches the run as a file of the workspace (`input.fileIds`). Every page is screenshotted under
 * `.data/test/screenshots` and checked with axe-core (no serious or critical violation).
 */
import type { Browser, Page } from 'playwright-core';
import { checkPage, launch } from '../console/browser';
import { bearer, createKey, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { startRunStack } from '../helpers/worker';
import { call, newAgent, newApp } from './helpers';

jest.setTimeout(120_000);

let h: Harness;
let stop: () => Promise<void>;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ h, stop } = await startRunStack());
  browser = await launch();
  // bypassCSP: the page's policy forbids scripts, and axe-core is injected as one; the page itself has none
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })).newPage();
  page.setDefaultTimeout(20_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stop?.();
});

it('fills and submits the public form and sees the run succeed with its output', async () => {
  const owner = await signUp(h);
  const auth = bearer(await createKey(h, owner, ['apps:manage', 'agents:write', 'files:read']));
  const app = await newApp(h, auth, await newAgent(h, auth), {
    name: 'Topic explainer',
    description: 'Name a topic and pick a tone; the agent explains it.',
    form: {
      fields: [
        { name: 'topic', label: 'Topic', type: 'text', required: true },
        { name: 'details', label: 'Details', type: 'textarea', required: false },
        { name: 'words', label: 'Number of words', type: 'number', required: false },
        { name: 'tone', label: 'Tone', type: 'select', required: true, options: ['plain', 'fun'] },
        { name: 'notes', label: 'Your notes', type: 'file', required: true },
      ],
    },
  });
  await ok(call(h, 'POST', `/v1/apps/${app.id}/publish`, auth), 200);

  await page.goto(`${h.url}/apps/${app.slug}`);
  await page.getByRole('heading', { name: 'Topic explainer' }).waitFor();
  // works without JavaScript: the page has no script at all
  expect(await page.locator('script').count()).toBe(0);
  await checkPage(page, 'app-form');

  // a refused submission comes back with its problems, still accessible
  await page.getByLabel('Number of words').fill('12');
  await page.getByLabel('Tone').selectOption('fun');
  await page.getByLabel('Topic').fill('   ');
  // the file field is required: the browser itself holds the form back until a file is picked
  const notes = Buffer.from('High tide at 06:12.\nLow tide at 12:30.\n');
  const picked = { name: 'tides.txt', mimeType: 'text/plain', buffer: notes };
  await page.getByLabel('Your notes').setInputFiles(picked);
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByRole('alert').waitFor();
  await checkPage(page, 'app-form-refused');

  await page.getByLabel('Topic').fill('Tides & <moons>');
  await page.getByLabel('Details').fill('Short, please.');
  // a browser sends no file back with a refused form: the visitor picks it (again)
  await page.getByLabel('Your notes').setInputFiles(picked);
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForURL(/\/apps\/[a-z0-9-]+\/runs\/[0-9a-f-]{36}\?token=/);
  const statusUrl = page.url();
  // the page reloads itself (the Refresh header) until the run is finished
  await page.locator('#status[data-status="succeeded"]').waitFor({ timeout: 30_000 });
  const output = JSON.parse((await page.locator('#output').textContent()) ?? 'null');
  const fileId = output?.echo?.notes;
  expect(output).toEqual({
    echo: {
      topic: 'Tides & <moons>',
      details: 'Short, please.',
      words: 12,
      tone: 'fun',
      notes: fileId,
      fileIds: [fileId],
    },
  });
  await checkPage(page, 'app-run-succeeded');
  // the picked file is a file of the workspace, byte for byte
  expect(await ok(call(h, 'GET', `/v1/files/${fileId}`, auth), 200)).toMatchObject({
    filename: 'tides.txt',
    mime: 'text/plain',
  });
  const content = await h.request(`/v1/files/${fileId}/content`, { headers: auth });
  expect(Buffer.from(await content.arrayBuffer()).equals(notes)).toBe(true);

  // the status page of a run still going, without automatic updates (so that it holds still to be checked)
  const form = new FormData();
  form.append('topic', 'later');
  form.append('tone', 'plain');
  form.append('notes', new Blob(['later'], { type: 'text/plain' }), 'later.txt');
  const submitted = h.request(`/apps/${app.slug}/runs`, {
    method: 'POST',
    headers: { accept: 'application/json' },
    body: form,
  });
  const pending = await ok(submitted, 201);
  expect(statusUrl).toContain('?token=');
  await page.goto(`${pending.statusUrl}&refresh=off`);
  await page.locator('#status').waitFor();
  await checkPage(page, 'app-run-status');
});
