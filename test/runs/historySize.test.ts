import * as proto from '@temporalio/proto';
import { runWorkflowId } from '../../workflows/messages';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';

const KiB = 1024;
const MiB = 1024 * KiB;
/** Enough turns that a history carrying the input or the conversation would pass the bound many times over. */
const TURNS = 60;

/**
 * Workflow histories stay small (docs/api/runs.md#how-a-run-executes-operators): the run workflow
 * passes ids and message indexes, and the activities load the input and the conversation from
 * PostgreSQL. A workflow that carried them would write the input into its history on every turn
 * (60 × 512 KiB = 30 MiB, fifteen times the bound below) and the conversation so far too, growing quadratically.
 */
describe('a long run keeps its Temporal history small', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;

  beforeAll(async () => {
    // The tool calls go to a receiver on 127.0.0.1.
    ({ h, stop } = await startRunStack({ allowPrivateEgress: true }));
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
  }, 120_000);
  afterAll(() => stop?.());

  it('runs 60 model turns over a 512 KiB input in a history under 2 MiB', async () => {
    const rx = await startReceiver((n, _req, res) => res.end(`reply ${n}`));
    try {
      const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { maxSteps: TURNS } });
      // TURNS - 1 turns calling a tool, then the last: the script is used up, the model answers.
      const script = Array.from({ length: TURNS - 1 }, (_, i) => ({
        tool: 'http_request',
        args: { url: `${rx.url}?n=${i}` },
      }));
      const run = await createRun(h, auth, { agentId: agent.id, input: { script, padding: 'x'.repeat(512 * KiB) } });

      // (the message of a timeout is cut short: the run it prints holds the 512 KiB input). The bound is
      // generous for a loaded CI machine.
      const done = await waitForStatus(h, auth, run.id, ['succeeded', 'failed', 'cancelled'], 480_000).catch(
        (err: Error) => {
          throw new Error(err.message.slice(0, 300));
        },
      );
      expect(done).toMatchObject({ status: 'succeeded', output: { answers: [] }, error: null });
      expect(rx.received).toHaveLength(TURNS - 1);
      const steps = await (await h.request(`/v1/runs/${run.id}/steps`, { headers: auth })).json();
      expect(steps.steps.slice(0, 4).map((s: { type: string; status: string }) => `${s.type}:${s.status}`)).toEqual([
        'model:succeeded',
        'tool:succeeded',
        'model:succeeded',
        'tool:succeeded',
      ]);
      // each tool call reached the receiver and its result was kept
      expect(steps.steps[1].detail.result).toContain('reply 0');

      const history = await h.temporal.client.workflow.getHandle(runWorkflowId(run.id)).fetchHistory();
      const bytes = proto.temporal.api.history.v1.History.encode(history).finish().byteLength;
      expect(history.events?.length).toBeGreaterThan(2 * TURNS * 3);
      expect(bytes).toBeLessThan(2 * MiB);
    } finally {
      await rx.close();
    }
  }, 600_000);
});
