import { randomUUID } from 'node:crypto';
import { storeRunFile } from '../../domain/files/runFiles';
import { createStorage } from '../../platform/storage/storage';
import { bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

type Headers = Record<string, string>;

// A run's artifacts and its report (docs/api/runs.md#artifacts, docs/api/runs.md#report), over real runs.
describe('run artifacts and report', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let owner: Account;
  let writer: Headers;
  let reader: Headers;
  let noRunsRead: Headers;
  let stranger: Headers;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    owner = await signUp(h, { name: 'Ada Gatekeeper' });
    await setPlan(h, owner.workspaceId, 'scale');
    writer = bearer(
      await createKey(
        h,
        owner,
        ['runs:read', 'runs:write', 'agents:write', 'finance:write', 'files:read', 'files:write'],
        'ops key',
      ),
    );
    reader = bearer(await createKey(h, owner, ['runs:read']));
    noRunsRead = bearer(await createKey(h, owner, ['runs:write', 'files:read', 'agents:read']));
    const other = await signUp(h);
    stranger = bearer(await createKey(h, other, ['runs:read', 'files:write']));
  }, 120_000);
  afterAll(() => stop?.());

  const get = (path: string, headers = reader) => h.request(path, { headers });

  async function reportRun(): Promise<{ runId: string; fileId: string; output: any }> {
    const run = await ok(
      h.request('/v1/finance/reports', {
        method: 'POST',
        headers: writer,
        json: { from: '2026-10-01', to: '2026-10-31', kind: 'monthly' },
      }),
      201,
    );
    const done = await waitForStatus(h, writer, run.id, 'succeeded');
    return { runId: run.id, fileId: done.output.fileId, output: done.output };
  }

  it("lists the file a finance report run wrote as the run's artifact, with the step that wrote it", async () => {
    const { runId, fileId } = await reportRun();
    const body = await ok(get(`/v1/runs/${runId}/artifacts`), 200);
    const steps = await ok(get(`/v1/runs/${runId}/steps`), 200);
    const toolStep = steps.steps.find((s: any) => s.type === 'tool' && s.detail.tool === 'finance_report');
    expect(body).toEqual({
      artifacts: [
        {
          fileId,
          name: 'finance-monthly-2026-10-01-2026-10-31.pdf',
          mime: 'application/pdf',
          size: expect.any(Number),
          step: toolStep.index,
          createdAt: expect.any(String),
        },
      ],
      nextCursor: null,
    });
    const content = await h.request(`/v1/files/${fileId}/content`, { headers: writer });
    expect(content.status).toBe(200);
    expect((await content.arrayBuffer()).byteLength).toBe(body.artifacts[0].size);

    // a run that wrote nothing has no artifacts
    const agent = await createAgent(h, writer, { presetId: 'general-assistant' });
    const plain = await createRun(h, writer, { agentId: agent.id, input: { q: 1 } });
    expect(await ok(get(`/v1/runs/${plain.id}/artifacts`), 200)).toEqual({ artifacts: [], nextCursor: null });
  });

  it('pages newest first, drops a deleted file, and keeps to its scope and workspace', async () => {
    const { runId, fileId } = await reportRun();
    // two more files written by the run's one writer, as a tool in later steps would
    const storage = createStorage(h.config.storageUrl, h.config.s3);
    const em = h.orm.em.fork();
    const write = (name: string, step: number) =>
      storeRunFile(em, storage, {
        workspaceId: owner.workspaceId,
        runId,
        step,
        fileId: randomUUID(),
        filename: name,
        mime: 'text/plain',
        bytes: Buffer.from(`contents of ${name}`),
      });
    const second = await write('second.txt', 7);
    const third = await write('third.txt', 8);

    const page1 = await ok(get(`/v1/runs/${runId}/artifacts?limit=2`), 200);
    expect(page1.artifacts.map((a: any) => [a.name, a.step])).toEqual([
      ['third.txt', 8],
      ['second.txt', 7],
    ]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await ok(get(`/v1/runs/${runId}/artifacts?limit=2&cursor=${page1.nextCursor}`), 200);
    expect(page2.artifacts.map((a: any) => a.fileId)).toEqual([fileId]);
    expect(page2.nextCursor).toBeNull();

    // the file is gone from the library: it is gone from the run's artifacts too
    await ok(h.request(`/v1/files/${second.id}`, { method: 'DELETE', headers: writer }), 204);
    const after = await ok(get(`/v1/runs/${runId}/artifacts`), 200);
    expect(after.artifacts.map((a: any) => a.fileId)).toEqual([third.id, fileId]);

    await error(get(`/v1/runs/${runId}/artifacts`, noRunsRead), 403, 'forbidden');
    await error(get(`/v1/runs/${runId}/artifacts`, stranger), 404, 'not_found');
    await error(get(`/v1/runs/${randomUUID()}/artifacts`), 404, 'not_found');
    await error(get(`/v1/runs/${runId}/artifacts?cursor=nope`), 400, 'validation_error');
    await error(get(`/v1/runs/${runId}/artifacts?limit=0`), 400, 'validation_error');
  });

  it('reports a run: agent, timeline with who answered each gate and when, output, usage, artifacts', async () => {
    const agent = await createAgent(h, writer, {
      name: 'Greeter <b>',
      presetId: 'scripted',
      settings: { approval: 'before_output' },
    });
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const run = await createRun(h, writer, {
      agentId: agent.id,
      input: { script: [{ ask: 'Your name?' }, { final: { greeting: hostile } }] },
    });
    const asked = await waitForStatus(h, writer, run.id, 'needs_input');
    // the question is answered with the key, the approval by the owner's session
    await ok(
      h.request(`/v1/runs/${run.id}/input`, {
        method: 'POST',
        headers: writer,
        json: { answer: 'Grace', actionId: asked.pendingAction.id },
      }),
      202,
    );
    const approval = await waitForStatus(h, writer, run.id, 'needs_approval');
    await ok(
      h.request(`/v1/runs/${run.id}/approve`, {
        method: 'POST',
        headers: { cookie: owner.cookie, 'x-workspace-id': owner.workspaceId },
        json: { approved: true, actionId: approval.pendingAction.id },
      }),
      202,
    );
    const done = await waitForStatus(h, writer, run.id, 'succeeded');

    const report = await ok(get(`/v1/runs/${run.id}/report`), 200);
    expect(report.run).toEqual({
      id: run.id,
      status: 'succeeded',
      createdAt: done.createdAt,
      startedAt: done.startedAt,
      completedAt: done.completedAt,
    });
    expect(report.agent).toEqual({ id: agent.id, name: 'Greeter <b>', version: 1 });
    expect(report.output).toEqual({ greeting: hostile });
    expect(report.error).toBeNull();
    expect(report.usage).toEqual(done.usage);
    expect(report.usage.costUsd).toBeGreaterThan(0);
    expect(report.artifacts).toEqual([]);

    const gates = report.timeline.filter((s: any) => s.gate);
    expect(gates.map((s: any) => s.type)).toEqual(['input', 'approval']);
    const keyId = (await ok(h.request('/v1/api-keys', { headers: { cookie: owner.cookie } }), 200)).apiKeys.find(
      (k: any) => k.name === 'ops key',
    ).id;
    expect(gates[0].gate).toMatchObject({
      actionId: asked.pendingAction.id,
      asked: { question: 'Your name?' },
      answer: { answer: 'Grace' },
      answeredBy: { type: 'api_key', id: keyId, name: 'ops key' },
    });
    expect(gates[1].gate).toMatchObject({
      actionId: approval.pendingAction.id,
      answer: { approved: true },
      answeredBy: { type: 'user', id: owner.userId, name: 'Ada Gatekeeper' },
    });
    for (const g of gates) {
      expect(Date.parse(g.gate.answeredAt)).toBeGreaterThanOrEqual(Date.parse(g.startedAt));
      expect(Date.parse(g.gate.answeredAt)).toBeLessThanOrEqual(Date.parse(done.completedAt));
    }
    expect(report.timeline.map((s: any) => s.index)).toEqual(report.timeline.map((_: unknown, i: number) => i));

    await error(get(`/v1/runs/${run.id}/report`, noRunsRead), 403, 'forbidden');
    await error(get(`/v1/runs/${run.id}/report`, stranger), 404, 'not_found');
    await error(get(`/v1/runs/${run.id}/report?format=pdf`), 400, 'validation_error');

    // the printable page: self-contained, the untrusted output escaped, nothing may load or run
    const page = await get(`/v1/runs/${run.id}/report?format=html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Greeter &lt;b&gt;');
    expect(html).toContain('Ada Gatekeeper');
    expect(html).toContain('ops key');
    expect(html).not.toMatch(/(?:src|href)="https?:/);
    await error(get(`/v1/runs/${run.id}/report?format=html`, stranger), 404, 'not_found');
  });

  it('links the report page to the files the run produced, through the public URL', async () => {
    const { runId, fileId } = await reportRun();
    const report = await ok(get(`/v1/runs/${runId}/report`), 200);
    expect(report.artifacts.map((a: any) => a.fileId)).toEqual([fileId]);
    const html = await (await get(`/v1/runs/${runId}/report?format=html`)).text();
    expect(html).toContain(`href="${h.config.publicUrl}/v1/files/${fileId}/content"`);
  });
});
