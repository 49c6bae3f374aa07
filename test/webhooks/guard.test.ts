import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startReceiver } from '../helpers/receiver';
import { pollUntil } from '../helpers/poll';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startWorker, testTaskQueue, type RunningWorker } from '../helpers/worker';

// The address is checked again on every delivery attempt, whatever
// was true at registration (a DNS answer that changed, a subscription made while the check was off).
describe('webhook delivery with the public-address guard on', () => {
  let h: Harness;
  let worker: RunningWorker;

  beforeAll(async () => {
    const base = await startApi();
    const queue = testTaskQueue();
    await base.close();
    // registration with the check off, delivery by a worker with the check on
    h = await startApi({ allowPrivateWebhooks: true, temporal: { ...base.config.temporal, taskQueue: queue } });
    worker = await startWorker({ ...h.config, allowPrivateWebhooks: false }, h.orm);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  it('never contacts a private receiver: 3 refused attempts, then failed', async () => {
    const receiver = await startReceiver();
    try {
      const owner = await signUp(h);
      await setPlan(h, owner.workspaceId, 'scale');
      const auth = bearer(await createKey(h, owner, ['webhooks:manage', 'runs:read', 'runs:write', 'agents:write']));
      const sub = await (
        await h.request('/v1/webhooks', {
          method: 'POST',
          headers: auth,
          json: { url: receiver.url, events: ['run.succeeded'], secret: 'whsec-0123456789abcdef' },
        })
      ).json();
      const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
      const run = await createRun(h, auth, { agentId: agent.id, input: {} });
      await waitForStatus(h, auth, run.id, 'succeeded');
      const log = async () =>
        (await (await h.request(`/v1/webhooks/${sub.id}/deliveries`, { headers: auth })).json()).deliveries;
      const [delivery] = await pollUntil(30_000, log, (l) => l[0]?.status === 'failed', 'the failed delivery');
      expect(delivery).toMatchObject({ runId: run.id, type: 'run.succeeded', status: 'failed' });
      expect(delivery.attempts).toHaveLength(3);
      for (const attempt of delivery.attempts) {
        expect(attempt).toMatchObject({ statusCode: null, error: expect.stringMatching(/not public/) });
      }
      // every attempt was refused before connecting: the receiver never heard of it
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
