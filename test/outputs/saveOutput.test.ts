import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { sendOutput } from '../../domain/outputs/delivery';
import { webhookTaskQueue } from '../../workflows/taskQueues';
import { saveOutputWorkflow, type SaveOutputArgs } from '../../workflows/outputDelivery';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, signUp, type Account } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { startRunStack } from '../helpers/worker';
import { createSecretBox } from '../../platform/secrets';

// The pieces other workflows (a flow's save_output step) build on (docs/api/output-connections.md#how-it-runs-operators).
describe('saving an output from a workflow or the domain', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let owner: Account;
  let auth: Record<string, string>;

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
    owner = await signUp(h);
    auth = bearer(await createKey(h, owner, ['webhooks:manage']));
  }, 120_000);
  afterAll(() => stop?.());

  const connect = async (url: string) =>
    (await (
      await h.request('/v1/output-connections', {
        method: 'POST',
        headers: auth,
        json: { name: 'sink', type: 'http', url, secret: 's'.repeat(16) },
      })
    ).json()) as { id: string };
  const save = (args: Omit<SaveOutputArgs, 'deliveryQueue'>) =>
    h.temporal.client.workflow.execute(saveOutputWorkflow, {
      workflowId: `save-output-test-${randomUUID()}`,
      taskQueue: h.config.temporal.taskQueue,
      args: [{ deliveryQueue: webhookTaskQueue(h.config.temporal.taskQueue), ...args }],
    });

  it('saveOutputWorkflow records once per key and delivers; a repeat sends nothing more', async () => {
    const rx = await startReceiver();
    try {
      const conn = await connect(rx.url);
      const flowRunId = randomUUID();
      const args = {
        workspaceId: owner.workspaceId,
        connectionId: conn.id,
        output: { rows: 3 },
        flowRunId,
        key: `flow-run:${flowRunId}:save`,
      };
      const first = await save(args);
      expect(first).toEqual({ deliveryId: expect.any(String), status: 'succeeded' });
      const again = await save(args);
      // each save's workflow has closed: the repeat found the first delivery and sent nothing
      expect(again).toEqual(first);
      expect(rx.received).toHaveLength(1);
      expect(JSON.parse(rx.received[0].raw.toString())).toEqual({
        id: first.deliveryId,
        type: 'output',
        connectionId: conn.id,
        runId: null,
        flowRunId,
        output: { rows: 3 },
      });
      const log = (await (await h.request(`/v1/output-connections/${conn.id}/deliveries`, { headers: auth })).json())
        .deliveries;
      expect(log).toMatchObject([{ id: first.deliveryId, flowRunId, runId: null, status: 'succeeded' }]);
    } finally {
      await rx.close();
    }
  });

  it('a connection of another workspace, or a deleted one, fails the workflow without sending', async () => {
    const rx = await startReceiver();
    try {
      const conn = await connect(rx.url);
      const other = await signUp(h);
      await expect(
        save({ workspaceId: other.workspaceId, connectionId: conn.id, output: 1, flowRunId: randomUUID() }),
      ).rejects.toBeInstanceOf(WorkflowFailedError);
      await h.request(`/v1/output-connections/${conn.id}`, { method: 'DELETE', headers: auth });
      await expect(
        save({ workspaceId: owner.workspaceId, connectionId: conn.id, output: 1, flowRunId: randomUUID() }),
      ).rejects.toBeInstanceOf(WorkflowFailedError);
      expect(rx.received).toHaveLength(0);
    } finally {
      await rx.close();
    }
  });

  it('sendOutput records and makes one attempt, outside Temporal', async () => {
    const rx = await startReceiver((_n, _req, res) => {
      res.statusCode = 500;
      res.end();
    });
    try {
      const conn = await connect(rx.url);
      const em = h.orm.em.fork();
      const runId = randomUUID();
      const sent = await sendOutput(
        em,
        owner.workspaceId,
        conn.id,
        { a: 1 },
        { runId },
        { allowPrivate: true, box: createSecretBox(h.config.secretKeys) },
      );
      expect(sent).toMatchObject({ outcome: 'attempt_failed', error: 'receiver answered 500' });
      expect(rx.received).toHaveLength(1);
      expect(rx.received[0].headers['x-svc-attempt']).toBe('1');
      await expect(
        sendOutput(
          em,
          randomUUID(),
          conn.id,
          {},
          { runId },
          { allowPrivate: true, box: createSecretBox(h.config.secretKeys) },
        ),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
    } finally {
      await rx.close();
    }
  });
});
