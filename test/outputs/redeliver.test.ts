import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { error, ok } from '../helpers/responses';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack } from '../helpers/worker';
import { outputRedeliveryWorkflowId } from '../../domain/outputs/redeliver';
import { runOutputsWorkflowId } from '../../domain/outputs/runOutputs';
import { SvcWorkspaceId } from '../../workflows/searchAttributes';
import { pollUntil } from '../helpers/poll';

type Headers = Record<string, string>;
interface Delivery {
  id: string;
  status: string;
  attempts: Array<{ statusCode: number | null; error: string | null }>;
}

// Redelivery of a save-output delivery (docs/api/output-connections.md#redelivery), real receivers on 127.0.0.1.
describe('redelivering a saved output', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Headers;
  let workspaceId: string;
  let stranger: Headers;
  const secret = 'outsec-0123456789abcdef';

  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ allowPrivateWebhooks: true }));
    const other = await signUp(h);
    await setPlan(h, other.workspaceId, 'scale');
    stranger = bearer(await createKey(h, other, ['webhooks:manage']));
  }, 120_000);
  afterAll(() => stop?.());

  beforeEach(async () => {
    const owner = await signUp(h);
    workspaceId = owner.workspaceId;
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:write']));
  });

  const redeliver = (connId: string, deliveryId: string, headers = auth) =>
    h.request(`/v1/output-connections/${connId}/deliveries/${deliveryId}/redeliver`, { method: 'POST', headers });
  const log = async (connId: string): Promise<Delivery[]> =>
    (await ok(h.request(`/v1/output-connections/${connId}/deliveries`, { headers: auth }), 200)).deliveries;
  /** The latest delivery once a round of it is over with `attempts` attempts: no attempt of it can follow. */
  const finished = async (connId: string, attempts: number): Promise<Delivery> =>
    (await pollUntil(
      15_000,
      async () => (await log(connId))[0] as Delivery | undefined,
      (d) => Boolean(d) && d!.status !== 'pending' && d!.attempts.length >= attempts,
      `the delivery finished with ${attempts} attempts`,
    ))!;
  /** A connection to `url`, and a succeeded run of an agent saving to it. */
  async function savedRun(url: string): Promise<{ connId: string; runId: string }> {
    const conn = await ok(
      h.request('/v1/output-connections', {
        method: 'POST',
        headers: auth,
        json: { name: 'sink', type: 'http', url, secret },
      }),
      201,
    );
    const agent = await createAgent(h, auth, { presetId: 'scripted', settings: { saveOutput: [conn.id] } });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { total: 42 } }] } });
    await waitForStatus(h, auth, run.id, 'succeeded');
    return { connId: conn.id, runId: run.id };
  }

  it('sends a failed delivery again, three new attempts with the same body and id, and a succeeded one too', async () => {
    // refuses the first round, accepts from then on
    const rx = await startReceiver((n, _req, res) => {
      res.statusCode = n < 3 ? 500 : 204;
      res.end();
    });
    try {
      const { connId, runId } = await savedRun(rx.url);
      const failed = await finished(connId, 3);
      expect(failed).toMatchObject({ runId, status: 'failed' });
      expect(failed.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500]);

      const started = await ok(redeliver(connId, failed.id), 202);
      expect(started).toMatchObject({ id: failed.id, runId, status: 'pending' });
      const done = await finished(connId, 4);
      expect(done.status).toBe('succeeded');
      expect(done.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 204]);
      expect(rx.received).toHaveLength(4);
      // the same bytes and delivery id; the attempt counts within its round
      expect(rx.received[3].raw.equals(rx.received[0].raw)).toBe(true);
      expect(rx.received[3].headers['x-svc-delivery']).toBe(failed.id);
      expect(rx.received.map((r) => r.headers['x-svc-attempt'])).toEqual(['1', '2', '3', '1']);
      // both the first round and the redelivery are found in Temporal UI by workspace
      const workflows = [runOutputsWorkflowId(runId), outputRedeliveryWorkflowId(failed.id, 3)];
      for (const id of workflows) {
        const described = await h.temporal.client.workflow.getHandle(id).describe();
        expect(described.typedSearchAttributes.get(SvcWorkspaceId)).toBe(workspaceId);
      }

      // a receiver that lost a succeeded one asks again
      await ok(redeliver(connId, failed.id), 202);
      expect((await finished(connId, 5)).status).toBe('succeeded');
      expect(rx.received).toHaveLength(5);
      expect(rx.received[4].raw.equals(rx.received[0].raw)).toBe(true);
    } finally {
      await rx.close();
    }
  }, 60_000);

  it('starts one round of two asked at once, refuses one in flight (409), and answers 404 for what is not the caller’s', async () => {
    // every answer takes 1 s, so a round is in flight for a while
    const rx = await startReceiver((_n, _req, res) => {
      setTimeout(() => res.end('ok'), 1000);
    });
    try {
      const { connId } = await savedRun(rx.url);
      const first = await finished(connId, 1);
      expect(first.status).toBe('succeeded');

      const both = await Promise.all([redeliver(connId, first.id), redeliver(connId, first.id)]);
      expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
      const refused = await error(redeliver(connId, first.id), 409, 'conflict');
      expect(refused.details).toEqual({ status: 'pending' });
      expect((await finished(connId, 2)).status).toBe('succeeded');
      expect(rx.received).toHaveLength(2);

      await error(redeliver(connId, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
      await error(redeliver(connId, first.id, stranger), 404, 'not_found');
      await error(redeliver(connId, 'not-a-uuid'), 404, 'not_found');
      expect((await h.request(`/v1/output-connections/${connId}`, { method: 'DELETE', headers: auth })).status).toBe(
        204,
      );
      await error(redeliver(connId, first.id), 404, 'not_found');
      await pollUntil(1000, () => rx.received.length === 2, Boolean, 'no more deliveries');
      expect(rx.received).toHaveLength(2);
    } finally {
      await rx.close();
    }
  }, 60_000);
});
