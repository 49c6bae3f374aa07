/**
 * The console's build areas end to end (console/src/areas/{evals,knowledge,projects,pricing}), in a real
 * Chromium against the real service, as a workspace owner does it: an eval written and run, its scores; the
 * agent copilot proposing a change that is accepted; a project with a member and an agent; a knowledge
 * document added and found; a price list with a rule and a quote. Every page is checked (docs/console.md).
 */
import type { Locator } from 'playwright-core';
import { pollUntil } from '../helpers/poll';
import { checkPage } from './browser';
import { startConsole, type ConsoleSession } from './consoleSession';

jest.setTimeout(300_000);

let s: ConsoleSession;
let agentId = '';

beforeAll(async () => {
  // each eval case and copilot turn is a run: more than an unverified address may start
  s = await startConsole({ unverifiedRunLimit: 1000 });
  const res = await s.asSession('/v1/agents', {
    method: 'POST',
    json: { name: 'Echo', presetId: 'general-assistant' },
  });
  expect(res.status).toBe(201);
  agentId = ((await res.json()) as { id: string }).id;
}, 180_000);

afterAll(async () => {
  await s?.stop();
});

async function expectText(locator: Locator, pattern: RegExp, ms = 20_000): Promise<void> {
  await pollUntil(
    ms,
    async () => (await locator.textContent()) ?? '',
    (text) => pattern.test(text),
    `text ${pattern}`,
    100,
  );
}

describe('console: evals, copilot, projects, knowledge and price lists', () => {
  it('writes an eval, runs it, and shows each case scored with its run', async () => {
    const { page } = s;
    await s.go(`/evals?agentId=${agentId}`);
    await page.getByRole('heading', { name: 'Evals' }).waitFor();
    await page.getByText('This agent has no evals yet.').waitFor();
    await checkPage(page, 'evals');

    await page.getByRole('link', { name: 'New eval' }).click();
    await page.getByRole('heading', { name: 'New eval' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Greetings');
    await page.getByLabel('Case 1 input (JSON object)').fill('{"q": "hi"}');
    await page.getByLabel('Case 1 expected output (JSON)').fill('{"echo": {"q": "hi"}}');
    await page.getByRole('button', { name: 'Add a case' }).click();
    await page.getByLabel('Case 2 input (JSON object)').fill('{"q": "bye"}');
    await page.getByLabel('Case 2 expected output (JSON)').fill('{"echo": "something else"}');
    await checkPage(page, 'evals-new');
    await page.getByRole('button', { name: 'Save the eval' }).click();

    await page.getByRole('heading', { name: 'Greetings' }).waitFor();
    await page.getByText('Not run yet.').waitFor();
    await page.getByRole('button', { name: 'Start an eval run' }).click();

    await page.getByRole('heading', { name: 'Eval run results' }).waitFor();
    await expectText(page.getByTestId('eval-run-status'), /succeeded/, 180_000);
    await expectText(page.getByTestId('eval-run-score'), /^50 %$/);
    const rows = page.getByTestId('case-result');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/^11passedrun [0-9a-f]{8}/);
    expect(await rows.nth(1).textContent()).toMatch(/^20failedrun [0-9a-f]{8}/);
    // the case's run is a real run of the agent, linked from its row
    const href = (await rows.nth(0).getByRole('link').getAttribute('href')) ?? '';
    const runId = /\/console\/runs\/([0-9a-f-]{36})$/.exec(href)?.[1];
    expect(runId).toBeTruthy();
    const run = (await (await s.asSession(`/v1/runs/${runId}`)).json()) as { agentId: string; output: unknown };
    expect(run).toMatchObject({ agentId, output: { echo: { q: 'hi' } } });
    await checkPage(page, 'evals-run');

    await page.getByRole('link', { name: '← Greetings' }).click();
    await page.getByRole('heading', { name: 'Greetings' }).waitFor();
    await expectText(page.getByTestId('eval-run'), /succeeded1 of 250 %/);
    await page.getByRole('figure', { name: 'Scores over eval runs' }).locator('svg').first().waitFor();
    await checkPage(page, 'evals-detail');
  });

  it('asks the agent copilot for a change, shows its diff and accepts it as the next version', async () => {
    const { page } = s;
    await s.go(`/agents/${agentId}`);
    await page.getByRole('link', { name: 'copilot' }).click();
    await page.getByRole('heading', { name: 'Copilot for Echo' }).waitFor();
    await page.getByText('No messages yet').waitFor();
    await page.getByLabel('Message to the copilot').fill('Change the instructions to "Answer in French."');
    await page.getByRole('button', { name: 'Send' }).click();

    const accept = page.getByRole('button', { name: 'Accept' });
    await accept.waitFor({ timeout: 60_000 });
    await expectText(page.locator('.diff-added').first(), /Answer in French\./);
    await checkPage(page, 'evals-copilot');
    await accept.click();
    await expectText(page.getByRole('status').filter({ hasText: 'Accepted' }), /now at version 2/);

    const agent = (await (await s.asSession(`/v1/agents/${agentId}`)).json()) as {
      version: number;
      instructions: string;
    };
    expect(agent).toMatchObject({ version: 2, instructions: 'Answer in French.' });

    await s.go(`/proposals?agentId=${agentId}`);
    await page.getByRole('heading', { name: 'Proposals' }).waitFor();
    await expectText(page.locator('.card').first(), /Proposal against version 1\s*accepted/);
    // nothing to draft from: the agent has no corrected feedback yet
    await page.getByRole('button', { name: 'Draft from feedback' }).click();
    await expectText(
      page.getByRole('alert').filter({ hasText: 'Could not draft' }),
      /Could not draft a proposal.*\(conflict\)/s,
    );
    await checkPage(page, 'evals-proposals');
  });

  it('creates a project, adds a member with a role and an agent', async () => {
    const { page } = s;
    await s.go('/projects');
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByText('No projects yet.').waitFor();
    await checkPage(page, 'projects');

    await page.getByLabel('Name', { exact: true }).fill('Garden');
    await page.getByLabel('Description (optional)').fill('Plants and their care');
    await page.getByRole('button', { name: 'Create the project' }).click();
    await page.getByRole('heading', { name: 'Garden' }).waitFor();
    await page.getByText('No members yet.').waitFor();

    await page.getByRole('button', { name: 'Add yourself as editor' }).click();
    const member = page.getByTestId('project-member');
    await expectText(member, /\(you\)/);
    await member.getByRole('combobox').selectOption('viewer');
    await pollUntil(
      10_000,
      async () => {
        const res = await s.asSession(`/v1/projects/${projectIdFrom(page.url())}/members`);
        return ((await res.json()) as { members: { userId: string; role: string }[] }).members;
      },
      (members) => members.length === 1 && members[0].role === 'viewer' && members[0].userId === s.account.userId,
      'the member to be a viewer',
      100,
    );

    await page.getByLabel('Add an agent to this project').selectOption({ label: 'Echo' });
    await page.getByRole('button', { name: 'Add the agent' }).click();
    await page.getByRole('link', { name: 'Echo' }).waitFor();
    await checkPage(page, 'projects-detail');
  });

  it('adds a knowledge document linked to an agent and a project, and finds it with highlighted words', async () => {
    const { page } = s;
    await s.go('/knowledge');
    await page.getByRole('heading', { name: 'Knowledge' }).waitFor();
    await page.getByText('No documents yet.').waitFor();

    await page.getByLabel('Title').fill('Watering guide');
    await page
      .getByLabel('Text', { exact: true })
      .fill('Water the &lt;ferns&gt; every morning & keep watering twice a day in summer.');
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Garden' });
    await page.getByRole('checkbox', { name: 'Echo' }).check();
    await page.getByRole('button', { name: 'Add the document' }).click();
    await expectText(page.getByRole('status').filter({ hasText: 'Added' }), /Added “Watering guide”/);
    await expectText(page.getByTestId('knowledge-document'), /Watering guide.*text \(text\)/);

    await page.getByLabel('Words or "a phrase"').fill('watering');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const result = page.getByTestId('knowledge-result');
    await result.getByRole('link', { name: 'Watering guide' }).waitFor();
    // the service's marks are highlighted; the rest of its snippet is shown as the text it is, never read as HTML
    expect(await result.locator('mark').allTextContents()).toEqual(['Water', 'watering']);
    const found = (await (await s.asSession('/v1/knowledge/search?q=watering')).json()) as {
      results: { snippet: string }[];
    };
    expect(found.results[0].snippet).toContain('&lt;ferns&gt;');
    expect(await result.locator('.snippet').textContent()).toBe(found.results[0].snippet.replace(/<\/?mark>/g, ''));
    await checkPage(page, 'knowledge');

    await result.getByRole('link', { name: 'Watering guide' }).click();
    await page.getByRole('heading', { name: 'Watering guide' }).waitFor();
    await expectText(page.locator('.facts'), /Garden.*Echo/s);
    await checkPage(page, 'knowledge-document');
  });

  it('creates a price list with a rule and quotes a run with it', async () => {
    const { page } = s;
    await s.go('/price-lists');
    await page.getByRole('heading', { name: 'Price lists' }).waitFor();
    await page.getByText('No price lists yet.').waitFor();
    await checkPage(page, 'pricing');

    await page.getByLabel('Name', { exact: true }).fill('Retail');
    await page.getByLabel("The workspace's default list").check();
    await page.getByRole('button', { name: 'Create the price list' }).click();
    await page.getByRole('heading', { name: /Retail/ }).waitFor();
    await page.getByText('No rules: every quote is the service').waitFor();

    // no rule yet: the quote is the service's cost, builtin/echo's 0.001 a run
    await page.getByLabel('Agent to quote').selectOption({ label: 'Echo' });
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await expectText(page.getByTestId('quote'), /\$0\.001 \(no rule matched/);

    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Echo' });
    await page.getByLabel("Markup on the service's cost (%)").fill('20');
    await page.getByLabel('Priority (highest wins)').fill('10');
    await page.getByRole('button', { name: 'Add the rule' }).click();
    await expectText(page.getByTestId('pricing-rule'), /^10agent Echo.*20 %/);

    await page.getByLabel('Input tokens', { exact: true }).fill('1000');
    await page.getByLabel('Output tokens', { exact: true }).fill('500');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await expectText(page.getByTestId('quote'), /\$0\.0012 \(the rule of priority 10 decided it\)/);
    await checkPage(page, 'pricing-detail');
  });
});

function projectIdFrom(url: string): string {
  return /\/projects\/([0-9a-f-]{36})/.exec(url)![1];
}
