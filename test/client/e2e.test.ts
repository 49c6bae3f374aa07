/**
 * `@svc/client` against the REAL service (API + Temporal worker + PostgreSQL): the scripted run with
 * every human gate, events, files as run input, feedback, cancel, and pagination across real pages.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PAUSED_STATUSES,
  ValidationError,
  type Run,
  type RunEvent,
  type Svc,
} from '../../client/src/index.js';
import { RUN_FIELDS } from '../../client/src/schema.js';
import type { Harness } from '../helpers/harness';
import { startRunStack } from '../helpers/worker';
import { clientWorkspace, rejectionOf } from './e2e-helpers';

let h: Harness;
let stop: () => Promise<void>;
let svc: Svc;

beforeAll(async () => {
  ({ h, stop } = await startRunStack());
  ({ svc } = await clientWorkspace(h));
}, 120_000);
afterAll(() => stop?.());

// pollMs far beyond timeoutMs: a wait can only resolve through the live event stream (or an immediate read)
const live = { pollMs: 600_000, timeoutMs: 30_000 };

describe('client e2e: runs', () => {
  it('drives a reviewed-writer run through input, approval and review to its corrected output', async () => {
    const agent = await svc.agents.create({ name: 'Writer', presetId: 'reviewed-writer' });
    expect(agent).toMatchObject({
      presetId: 'reviewed-writer',
      version: 1,
      modelId: 'builtin/scripted',
      settings: { approval: 'before_output', review: true },
    });
    expect(await svc.agents.get(agent.id)).toEqual(agent);
    const renamed = await svc.agents.update(agent.id, { instructions: 'Write for the audience.' });
    expect(renamed.version).toBe(2);
    const versions = await svc.agents.versions(agent.id, { limit: 1 }).toArray();
    expect(versions.map((v) => v.version)).toEqual([2, 1]);

    const created = await svc.runs.create({
      agentId: agent.id,
      input: { script: [{ ask: 'Who is the audience?' }, { final: { draft: 'Hello' } }] },
      metadata: { ticket: 'T-42' },
    });
    expect(created).toMatchObject({ status: 'queued', agentId: agent.id, metadata: { ticket: 'T-42' } });
    expect(Object.keys(created).sort()).toEqual(Object.keys(RUN_FIELDS).sort());

    // each wait gets the events it saw; a stream without Last-Event-ID replays the run from its start
    const waits: RunEvent[][] = [];
    const collect = () => {
      const events: RunEvent[] = [];
      waits.push(events);
      return (e: RunEvent) => void events.push(e);
    };
    const asking = await svc.runs.wait(created.id, { ...live, resolveOn: PAUSED_STATUSES, onEvent: collect() });
    expect(asking.status).toBe('needs_input');
    expect(asking.pendingAction).toEqual({ id: expect.any(String), type: 'input', question: 'Who is the audience?' });

    const answered = await svc.runs.input(created.id, { answer: 'engineers', actionId: asking.pendingAction!.id });
    expect(answered.id).toBe(created.id);
    const approving = await svc.runs.wait(created.id, {
      ...live,
      resolveOn: PAUSED_STATUSES,
      answeredActionId: asking.pendingAction!.id,
      onEvent: collect(),
    });
    expect(approving.status).toBe('needs_approval');
    expect(approving.pendingAction).toMatchObject({ type: 'approval', proposedOutput: { draft: 'Hello' } });

    await svc.runs.approve(created.id, { approved: true, actionId: approving.pendingAction!.id });
    const reviewing = await svc.runs.wait(created.id, {
      ...live,
      resolveOn: PAUSED_STATUSES,
      answeredActionId: approving.pendingAction!.id,
      onEvent: collect(),
    });
    expect(reviewing.status).toBe('needs_review');
    expect(reviewing.pendingAction).toMatchObject({ type: 'review', proposedOutput: { draft: 'Hello' } });

    await svc.runs.review(created.id, {
      accept: true,
      correctedOutput: { draft: 'Hello, engineers' },
      actionId: reviewing.pendingAction!.id,
    });
    const done = await svc.runs.wait(created.id, { ...live, onEvent: collect() });
    expect(done).toMatchObject({ status: 'succeeded', output: { draft: 'Hello, engineers' }, pendingAction: null });
    expect(await svc.runs.output(created.id)).toEqual({
      runId: created.id,
      status: 'succeeded',
      output: { draft: 'Hello, engineers' },
    });
    const steps = await svc.runs.steps(created.id);
    expect(steps.map((s) => s.type)).toEqual(['model', 'input', 'model', 'approval', 'review']);
    // two steps a page: the same five steps over three pages
    const pages: number[][] = [];
    for await (const page of svc.runs.stepPages(created.id, { limit: 2 }).pages()) {
      pages.push(page.steps.map((s) => s.index));
    }
    expect(pages).toEqual([[0, 1], [2, 3], [4]]);

    // onEvent saw the stream: each wait's last status is the one it resolved with; the final wait saw
    // the whole history, every gate in order, with step events (polling never produces those)
    const statusesOf = (events: RunEvent[]) =>
      events.filter((e) => e.type === 'run.status').map((e) => (e.data as Run).status);
    expect(waits.map((events) => statusesOf(events).at(-1))).toEqual([
      'needs_input',
      'needs_approval',
      'needs_review',
      'succeeded',
    ]);
    const history = statusesOf(waits[3]!);
    expect(history[0]).toBe('queued');
    const gates = history.filter((s, i) => s !== history[i - 1] && s !== 'queued' && s !== 'running');
    expect(gates).toEqual(['needs_input', 'needs_approval', 'needs_review', 'succeeded']);
    const stepEvents = waits[3]!.filter((e) => e.type === 'run.step');
    expect(new Set(stepEvents.map((e) => (e.data as { type: string }).type))).toEqual(
      new Set(steps.map((s) => s.type)),
    );
    expect(waits.flat().every((e) => e.type === 'run.step' || (e.data as Run).id === created.id)).toBe(true);
  });

  it('uploads a file, reads it back, and runs with it as input.fileIds', async () => {
    const bytes = new TextEncoder().encode(`report ${randomUUID()}\n`);
    const file = await svc.files.upload(bytes, { filename: 'report.txt', mime: 'text/plain' });
    expect(file).toMatchObject({
      filename: 'report.txt',
      mime: 'text/plain',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      folderId: null,
    });
    expect(await svc.files.get(file.id)).toEqual(file);
    expect(Buffer.from(await svc.files.content(file.id)).equals(Buffer.from(bytes))).toBe(true);
    expect((await svc.files.list().toArray()).map((f) => f.id)).toContain(file.id);

    const echo = await svc.agents.create({ name: 'Echo', presetId: 'general-assistant' });
    const run = await svc.runs.create({ agentId: echo.id, input: { fileIds: [file.id], note: 'see file' } });
    const done = await svc.runs.wait(run.id, live);
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual({ echo: { fileIds: [file.id], note: 'see file' } });

    const unknown = await rejectionOf(svc.runs.create({ agentId: echo.id, input: { fileIds: [randomUUID()] } }));
    expect(unknown).toBeInstanceOf(ValidationError);
    expect(unknown).toMatchObject({ status: 400, code: 'validation_error' });
    expect(unknown.details.issues).toEqual([expect.objectContaining({ path: 'input.fileIds.0' })]);

    await svc.files.delete(file.id);
    expect(await rejectionOf(svc.files.get(file.id))).toBeInstanceOf(NotFoundError);
  });

  it('records feedback on a run and rejects a rating outside 1..5', async () => {
    const echo = await svc.agents.create({ name: 'Echo', presetId: 'general-assistant' });
    const run = await svc.runs.wait((await svc.runs.create({ agentId: echo.id, input: { q: 1 } })).id, live);
    const feedback = await svc.runs.feedback(run.id, {
      rating: 4,
      correctedOutput: { better: true },
      comment: 'close',
    });
    expect(feedback).toEqual({
      id: expect.any(String),
      runId: run.id,
      rating: 4,
      correctedOutput: { better: true },
      comment: 'close',
      createdAt: expect.any(String),
    });
    const bare = await svc.runs.feedback(run.id, { rating: 1 });
    expect(bare).toMatchObject({ rating: 1, correctedOutput: null, comment: null });
    const bad = await rejectionOf(svc.runs.feedback(run.id, { rating: 6 }));
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.details.issues[0].path).toBe('rating');
  });

  it('cancels a run that waits for input; a second cancel is a ConflictError', async () => {
    const agent = await svc.agents.create({ name: 'Asker', presetId: 'scripted' });
    const run = await svc.runs.create({ agentId: agent.id, input: { script: [{ ask: 'Still there?' }] } });
    const waiting = await svc.runs.wait(run.id, { ...live, resolveOn: ['needs_input'] });
    expect(waiting.status).toBe('needs_input');

    await svc.runs.cancel(run.id);
    const cancelled = await svc.runs.wait(run.id, live);
    expect(cancelled).toMatchObject({ status: 'cancelled', pendingAction: null });
    const again = await rejectionOf(svc.runs.cancel(run.id));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again).toMatchObject({ status: 409, code: 'run.invalid_state', details: { status: 'cancelled' } });
    // the stale answer to the cancelled run's question is refused too
    const late = await rejectionOf(svc.runs.input(run.id, { answer: 'yes', actionId: waiting.pendingAction!.id }));
    expect(late).toBeInstanceOf(ConflictError);
  });

  it('iterates 45 runs across real pages of 20', async () => {
    const { svc: own } = await clientWorkspace(h); // an empty workspace: its list holds exactly these runs
    const echo = await own.agents.create({ name: 'Echo', presetId: 'general-assistant' });
    const created: string[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const runs = await Promise.all(
        Array.from({ length: 9 }, (_, i) => own.runs.create({ agentId: echo.id, input: { n: batch * 9 + i } })),
      );
      created.push(...runs.map((r) => r.id));
    }

    const seen: Run[] = [];
    for await (const run of own.runs.list({ limit: 20 })) seen.push(run);
    expect(seen).toHaveLength(45);
    expect(new Set(seen.map((r) => r.id))).toEqual(new Set(created));
    const times = seen.map((r) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a)); // newest first, across page boundaries

    const pages = [];
    for await (const page of own.runs.list({ limit: 20 }).pages()) pages.push(page);
    expect(pages.map((p) => p.runs.length)).toEqual([20, 20, 5]);
    expect(pages.map((p) => p.nextCursor === null)).toEqual([false, false, true]);
    expect(pages.flatMap((p) => p.runs.map((r) => r.id))).toEqual(seen.map((r) => r.id));

    expect(await own.runs.list({ limit: 20 }).toArray(25)).toHaveLength(25);
    const byAgent = await own.runs.list({ agentId: echo.id, limit: 100 }).toArray();
    expect(byAgent).toHaveLength(45);
    // let them finish so no workflow outlives the test
    for (const id of created) await own.runs.wait(id, { pollMs: 200, timeoutMs: 30_000 });
  }, 120_000);
});
