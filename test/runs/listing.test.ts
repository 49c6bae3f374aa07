import { randomUUID } from 'node:crypto';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, type RunningWorker } from '../helpers/worker';

describe('run listing and the event stream', () => {
  let h: Harness;
  let worker: RunningWorker;
  let auth: Record<string, string>;

  beforeAll(async () => {
    ({ h, worker } = await startRunStack());
    const owner = await signUp(h);
    // the tests poll; the scale plan's 1200 requests a minute keep the rate limit out of the way
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  it('pages over 50 runs newest first without duplicates or gaps, and filters by status and agent', async () => {
    const echo = await createAgent(h, auth, { presetId: 'general-assistant' });
    const asker = await createAgent(h, auth, { presetId: 'scripted' });
    const created: string[] = [];
    for (let i = 0; i < 50; i++) {
      const agent = i % 5 === 0 ? asker : echo;
      const input = agent === asker ? { script: [{ ask: `q${i}` }] } : { i };
      created.push((await createRun(h, auth, { agentId: agent.id, input })).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await h.request(`/v1/runs?limit=7${cursor ? `&cursor=${cursor}` : ''}`, { headers: auth });
      const body: { runs: Array<{ id: string }>; nextCursor: string | null } = await res.json();
      seen.push(...body.runs.map((r) => r.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(8);
    expect(seen).toEqual([...created].reverse());

    const byAgent = await (await h.request(`/v1/runs?agentId=${asker.id}&limit=100`, { headers: auth })).json();
    expect(byAgent.runs).toHaveLength(10);
    for (const id of byAgent.runs.map((r: { id: string }) => r.id)) await waitForStatus(h, auth, id, 'needs_input');
    const waiting = await (await h.request('/v1/runs?status=needs_input&limit=100', { headers: auth })).json();
    expect(waiting.runs.map((r: { id: string }) => r.id).sort()).toEqual(
      byAgent.runs.map((r: { id: string }) => r.id).sort(),
    );
    expect((await h.request('/v1/runs?status=bogus', { headers: auth })).status).toBe(400);
  });

  it('shows a run the same way in GET /v1/runs/{id} and in the list, waiting and finished', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ ask: 'colour?' }, { final: { answer: 'ok', n: 1.5 } }], note: 'é ✓' },
    });
    const same = async () => {
      const one = await (await h.request(`/v1/runs/${run.id}`, { headers: auth })).json();
      const list = await (await h.request(`/v1/runs?agentId=${agent.id}`, { headers: auth })).json();
      expect(list.runs).toHaveLength(1);
      expect(one).toEqual(list.runs[0]);
      return one;
    };
    await waitForStatus(h, auth, run.id, 'needs_input');
    const waiting = await same();
    expect(waiting.pendingAction).toEqual(expect.objectContaining({ type: 'input' }));
    expect(waiting.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const input = await h.request(`/v1/runs/${run.id}/input`, {
      method: 'POST',
      headers: auth,
      json: { answer: 'red' },
    });
    expect(input.status).toBe(202);
    await waitForStatus(h, auth, run.id, 'succeeded');
    const done = await same();
    expect(done.output).toEqual({ answer: 'ok', n: 1.5 });
    expect(done.input.note).toBe('é ✓');
    expect(new Date(done.completedAt).getTime()).toBeGreaterThanOrEqual(new Date(done.startedAt).getTime());
    expect((await h.request(`/v1/runs/${randomUUID()}`, { headers: auth })).status).toBe(404);
  });

  it('streams events from create to the terminal status and resumes after Last-Event-ID', async () => {
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, {
      agentId: agent.id,
      input: { script: [{ ask: 'name?' }, { final: { ok: true } }] },
    });
    const res = await h.request(`/v1/runs/${run.id}/events`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const events: Array<{ id: number; type: string; data: any }> = [];
    const parse = () => {
      const blocks = text.split('\n\n');
      text = blocks.pop()!;
      for (const block of blocks) {
        const id = /^id: (\d+)$/m.exec(block);
        const type = /^event: (.+)$/m.exec(block);
        const data = /^data: (.+)$/m.exec(block);
        if (id && type && data) events.push({ id: Number(id[1]), type: type[1], data: JSON.parse(data[1]) });
      }
    };
    let answered = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      parse();
      const waiting = events.find((e) => e.type === 'run.status' && e.data.status === 'needs_input');
      if (waiting && !answered) {
        answered = true;
        await h.request(`/v1/runs/${run.id}/input`, { method: 'POST', headers: auth, json: { answer: 'Ada' } });
      }
    }
    const statuses = events.filter((e) => e.type === 'run.status').map((e) => e.data.status);
    expect(statuses).toEqual(['queued', 'running', 'needs_input', 'running', 'succeeded']);
    expect(events.some((e) => e.type === 'run.step')).toBe(true);
    const ids = events.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(events[events.length - 1].data.output).toEqual({ ok: true });

    const resumeFrom = events.find((e) => e.data.status === 'needs_input')!.id;
    const resumed = await (
      await h.request(`/v1/runs/${run.id}/events`, { headers: { ...auth, 'Last-Event-ID': String(resumeFrom) } })
    ).text();
    const resumedIds = [...resumed.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(resumedIds).toEqual(ids.filter((id) => id > resumeFrom));

    // an EventSource reconnects after the end with the last id it saw: the stream ends, with nothing to send
    const afterEnd = await h.request(`/v1/runs/${run.id}/events`, {
      headers: { ...auth, 'Last-Event-ID': String(ids[ids.length - 1]) },
      signal: AbortSignal.timeout(5000),
    });
    expect(await afterEnd.text()).not.toMatch(/^id: /m);
  });
});
