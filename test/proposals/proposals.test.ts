import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createModelRegistry } from '../../domain/models/registry';
import { json, startChatServer } from '../domain/models/chatServer';
import { addMember, bearer, createKey, setPlan, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

type Headers = Record<string, string>;

const recorded = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '..', 'domain', 'models', 'recorded', `${name}.json`), 'utf8')) as unknown;

// Improvement proposals (docs/api/proposals.md): propose, draft from feedback, accept as a new version
// (once per base version, under concurrency), reject.
describe('improvement proposals', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let owner: Account;
  let writer: Headers;
  let reader: Headers;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack());
    owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    writer = bearer(
      await createKey(h, owner, ['agents:read', 'agents:write', 'runs:read', 'runs:write', 'feedback:write']),
    );
    reader = bearer(await createKey(h, owner, ['agents:read']));
  });
  afterAll(() => stop());

  const call = (method: string, path: string, headers: Headers, json?: unknown) =>
    h.request(path, { method, headers, json });
  const propose = (agentId: string, body: unknown, headers = writer) =>
    call('POST', `/v1/agents/${agentId}/proposals`, headers, body);

  it('proposes, lists by status, accepts as a new version and rejects', async () => {
    const agent = await createAgent(h, writer, { instructions: 'Be brief.' });
    const p = await ok(propose(agent.id, { changes: { instructions: 'Be kind.' }, rationale: 'tone' }), 201);
    expect(p).toEqual({
      id: expect.any(String),
      agentId: agent.id,
      baseVersion: 1,
      status: 'open',
      changes: { instructions: 'Be kind.' },
      rationale: 'tone',
      sourceFeedbackIds: [],
      createdAt: expect.any(String),
    });
    const q = await ok(propose(agent.id, { changes: { settings: { maxSteps: 3 } }, rationale: 'short' }), 201);
    expect(await ok(call('GET', `/v1/proposals/${p.id}`, writer), 200)).toEqual(p);
    expect(await ok(call('GET', `/v1/proposals/${p.id}`, reader), 200)).toEqual({ ...p, changes: {} });
    const open = await ok(call('GET', `/v1/agents/${agent.id}/proposals?status=open`, reader), 200);
    expect(open.proposals.map((x: { id: string }) => x.id)).toEqual([q.id, p.id]);

    const accepted = await ok(call('POST', `/v1/proposals/${p.id}/accept`, writer), 201);
    expect(accepted).toMatchObject({ id: agent.id, version: 2, instructions: 'Be kind.' });
    expect(await ok(call('GET', `/v1/agents/${agent.id}/versions/2`, writer), 200)).toMatchObject({
      instructions: 'Be kind.',
      settings: agent.settings,
    });
    await error(call('POST', `/v1/proposals/${p.id}/accept`, writer), 409, 'conflict');
    await error(call('POST', `/v1/proposals/${p.id}/reject`, writer), 409, 'conflict');
    // q was made on version 1; the agent is at 2 now
    const moved = await error(call('POST', `/v1/proposals/${q.id}/accept`, writer), 409, 'conflict');
    expect(moved.details).toEqual({ baseVersion: 1, currentVersion: 2 });
    expect(await ok(call('POST', `/v1/proposals/${q.id}/reject`, writer), 200)).toMatchObject({ status: 'rejected' });
    const byStatus = async (status: string) =>
      (await ok(call('GET', `/v1/agents/${agent.id}/proposals?status=${status}`, reader), 200)).proposals.map(
        (x: { id: string }) => x.id,
      );
    expect(await byStatus('accepted')).toEqual([p.id]);
    expect(await byStatus('rejected')).toEqual([q.id]);
    expect(await byStatus('open')).toEqual([]);
    const all = await ok(call('GET', `/v1/agents/${agent.id}/proposals?limit=1`, reader), 200);
    expect(all.proposals).toHaveLength(1);
    expect(all.nextCursor).toEqual(expect.any(String));
  });

  it('shows changed instructions only to callers who may read instructions, as the agent itself does', async () => {
    const agent = await createAgent(h, writer, { modelId: 'builtin/echo', instructions: 'The secret house recipe.' });
    const p = await ok(
      propose(agent.id, { changes: { instructions: 'The secret house recipe, shorter.', tools: [] }, rationale: 'r' }),
      201,
    );
    const runner = bearer(await createKey(h, owner, ['agents:read', 'runner:run']));
    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const asMember = { cookie: member.cookie, 'X-Workspace-Id': owner.workspaceId };
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const asAdmin = { cookie: admin.cookie, 'X-Workspace-Id': owner.workspaceId };
    const seen = async (headers: Headers) => {
      const one = await ok(call('GET', `/v1/proposals/${p.id}`, headers), 200);
      const list = await ok(call('GET', `/v1/agents/${agent.id}/proposals`, headers), 200);
      expect(list.proposals).toEqual([one]);
      return one.changes;
    };
    const full = { instructions: 'The secret house recipe, shorter.', tools: [] };
    // read concurrently: what one caller may see never depends on who asked just before
    const [asReader, asRunner, asWriter, memberSees, adminSees] = await Promise.all(
      [reader, runner, writer, asMember, asAdmin].map(seen),
    );
    expect({ asReader, memberSees }).toEqual({ asReader: { tools: [] }, memberSees: { tools: [] } });
    expect({ asRunner, asWriter, adminSees }).toEqual({ asRunner: full, asWriter: full, adminSees: full });

    // a draft from feedback holds the base version's instructions: an agents:read key sees none of them
    const run = await createRun(h, writer, { agentId: agent.id, input: { q: 'x' } });
    await waitForStatus(h, writer, run.id, 'succeeded');
    await ok(call('POST', `/v1/runs/${run.id}/feedback`, writer, { rating: 1, correctedOutput: 'y' }), 201);
    const draft = await ok(propose(agent.id, { fromFeedback: true }), 201);
    expect(draft.changes.instructions).toContain('The secret house recipe.');
    const shown = await ok(call('GET', `/v1/proposals/${draft.id}`, reader), 200);
    expect(shown.changes).toEqual({});
    expect(JSON.stringify(await ok(call('GET', `/v1/agents/${agent.id}/proposals`, reader), 200))).not.toContain(
      'secret house recipe',
    );
  });

  it('of two proposals on one base version accepted at once, exactly one makes a version', async () => {
    for (let round = 0; round < 3; round++) {
      const agent = await createAgent(h, writer, {});
      const a = await ok(propose(agent.id, { changes: { instructions: 'A' }, rationale: 'a' }), 201);
      const b = await ok(propose(agent.id, { changes: { instructions: 'B' }, rationale: 'b' }), 201);
      const answers = await Promise.all([a, b].map((p) => call('POST', `/v1/proposals/${p.id}/accept`, writer)));
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
      const { versions } = await ok(call('GET', `/v1/agents/${agent.id}/versions`, writer), 200);
      expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
      const statuses = await Promise.all(
        [a, b].map(async (p) => (await ok(call('GET', `/v1/proposals/${p.id}`, reader), 200)).status),
      );
      expect(statuses.sort()).toEqual(['accepted', 'open']);
    }
  });

  it('drafts a proposal from corrected feedback, deterministically; 409 without any', async () => {
    const agent = await createAgent(h, writer, { modelId: 'builtin/echo', instructions: 'Answer.' });
    const none = await error(propose(agent.id, { fromFeedback: true }), 409, 'conflict');
    expect(none.message).toContain('correctedOutput');
    const runs = [];
    for (const q of ['one', 'two']) {
      const run = await createRun(h, writer, { agentId: agent.id, input: { q } });
      await waitForStatus(h, writer, run.id, 'succeeded');
      runs.push(run);
    }
    const f1 = await ok(
      call('POST', `/v1/runs/${runs[0].id}/feedback`, writer, { rating: 2, correctedOutput: { a: 1 } }),
      201,
    );
    await ok(call('POST', `/v1/runs/${runs[1].id}/feedback`, writer, { rating: 5 }), 201);
    const f3 = await ok(
      call('POST', `/v1/runs/${runs[1].id}/feedback`, writer, { rating: 1, correctedOutput: 'two!' }),
      201,
    );
    const draft = await ok(propose(agent.id, { fromFeedback: true }), 201);
    const expected =
      'Answer.\n\nCorrected examples from feedback (answer like these):\n\n' +
      'Example 1\nInput: {"q":"one"}\nCorrect output: {"a":1}\n\n' +
      'Example 2\nInput: {"q":"two"}\nCorrect output: "two!"';
    expect(draft).toMatchObject({
      baseVersion: 1,
      changes: { instructions: expected },
      sourceFeedbackIds: [f1.id, f3.id],
      rationale: expect.stringContaining('2 corrected examples'),
    });
    const again = await ok(propose(agent.id, { fromFeedback: true }), 201);
    expect(again.changes).toEqual(draft.changes);
    const accepted = await ok(call('POST', `/v1/proposals/${draft.id}/accept`, writer), 201);
    expect(accepted).toMatchObject({ version: 2, instructions: expected });
  });

  it('drafts with the assistant model when one is configured, and from the examples when its draft does not fit', async () => {
    const agent = await createAgent(h, writer, { modelId: 'builtin/echo', instructions: 'Answer.' });
    const run = await createRun(h, writer, { agentId: agent.id, input: { q: 'capital of France' } });
    await waitForStatus(h, writer, run.id, 'succeeded');
    const feedback = await ok(
      call('POST', `/v1/runs/${run.id}/feedback`, writer, { rating: 1, correctedOutput: { city: 'Paris' } }),
      201,
    );
    // a real OpenAI-compatible server on 127.0.0.1 answering with recorded completions, and an API on it
    let fixture = 'proposal-draft';
    const chat = await startChatServer((_hit, res) => json(res, 200, recorded(fixture)));
    const models = createModelRegistry({
      baseUrl: `${chat.url}/v1`,
      apiKey: 'sk-test',
      models: [{ name: 'helper', inputPerMTokUsd: 0, outputPerMTokUsd: 0 }],
      timeoutMs: 5000,
      assistantModel: 'openai/helper',
    });
    const assisted = await startApi({}, { models });
    try {
      const draft = await ok(
        assisted.request(`/v1/agents/${agent.id}/proposals`, {
          method: 'POST',
          headers: writer,
          json: { fromFeedback: true },
        }),
        201,
      );
      expect(draft).toMatchObject({
        baseVersion: 1,
        changes: { instructions: 'Answer with a JSON object {"city": <the city>} and nothing else.' },
        rationale:
          'The corrections want the city as a JSON object. (drafted by openai/helper from 1 corrected example)',
        sourceFeedbackIds: [feedback.id],
      });
      expect(chat.hits[0].body.messages[0].content).toContain('improve the instructions');
      expect(JSON.parse(chat.hits[0].body.messages[1].content)).toEqual({
        instructions: 'Answer.',
        examples: [{ input: '{"q":"capital of France"}', correctOutput: '{"city":"Paris"}' }],
      });

      fixture = 'proposal-prose';
      const fallback = await ok(
        assisted.request(`/v1/agents/${agent.id}/proposals`, {
          method: 'POST',
          headers: writer,
          json: { fromFeedback: true },
        }),
        201,
      );
      expect(fallback.changes.instructions).toBe(
        'Answer.\n\nCorrected examples from feedback (answer like these):\n\n' +
          'Example 1\nInput: {"q":"capital of France"}\nCorrect output: {"city":"Paris"}',
      );
      expect(fallback.rationale).toMatch(
        /^Adds 1 corrected example from feedback to the instructions \(the assistant model's draft was not used: openai\/helper gave an answer of the wrong shape/,
      );
    } finally {
      await assisted.close();
      await chat.close();
    }
  });

  it('validates bodies with paths, hides other workspaces and checks scopes and roles', async () => {
    const agent = await createAgent(h, writer, {});
    for (const [body] of [
      [{}],
      [{ rationale: 'x' }],
      [{ changes: {}, rationale: 'x' }],
      [{ changes: { modelId: 'nope/model' }, rationale: 'x' }],
      [{ changes: { instructions: 'x' } }],
      [{ fromFeedback: false }],
      [{ fromFeedback: true, rationale: 'x' }],
    ]) {
      const e = await error(propose(agent.id, body), 400, 'validation_error');
      expect(e.details.issues.length).toBeGreaterThan(0);
    }
    const p = await ok(propose(agent.id, { changes: { instructions: 'y' }, rationale: 'x' }), 201);
    const other = await signUp(h);
    const stranger = bearer(await createKey(h, other, ['agents:read', 'agents:write']));
    await error(propose(agent.id, { changes: { instructions: 'z' }, rationale: 'x' }, stranger), 404, 'not_found');
    await error(call('GET', `/v1/agents/${agent.id}/proposals`, stranger), 404, 'not_found');
    await error(call('GET', `/v1/proposals/${p.id}`, stranger), 404, 'not_found');
    await error(call('POST', `/v1/proposals/${p.id}/accept`, stranger), 404, 'not_found');
    await error(call('POST', `/v1/proposals/${p.id}/reject`, stranger), 404, 'not_found');
    await error(call('GET', `/v1/proposals/${randomUUID()}`, writer), 404, 'not_found');
    await error(call('GET', `/v1/agents/${agent.id}/proposals?status=maybe`, writer), 400, 'validation_error');

    await error(propose(agent.id, { changes: { instructions: 'z' }, rationale: 'x' }, reader), 403, 'forbidden');
    await error(call('POST', `/v1/proposals/${p.id}/accept`, reader), 403, 'forbidden');
    await error(call('POST', `/v1/proposals/${p.id}/reject`, reader), 403, 'forbidden');
    const runsOnly = bearer(await createKey(h, owner, ['runs:read']));
    await error(call('GET', `/v1/proposals/${p.id}`, runsOnly), 403, 'forbidden');
    await error(call('GET', `/v1/agents/${agent.id}/proposals`, runsOnly), 403, 'forbidden');
    const member = await signUp(h);
    await addMember(h, member.userId, owner.workspaceId, 'member');
    const asMember = { cookie: member.cookie, 'X-Workspace-Id': owner.workspaceId };
    await ok(call('GET', `/v1/proposals/${p.id}`, asMember), 200);
    await error(call('POST', `/v1/proposals/${p.id}/accept`, asMember), 403, 'forbidden');
    const admin = await signUp(h);
    await addMember(h, admin.userId, owner.workspaceId, 'admin');
    const asAdmin = { cookie: admin.cookie, 'X-Workspace-Id': owner.workspaceId };
    await ok(call('POST', `/v1/proposals/${p.id}/reject`, asAdmin), 200);
  });
});
