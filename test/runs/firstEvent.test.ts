import { Client } from 'pg';
import { RUN_EVENTS_CHANNEL } from '../../domain/runs/events';
import { startApi, type Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';

import { createAgent, createRun } from '../helpers/runs';
import { pollUntil } from '../helpers/poll';

// A run's stream reads its events from PostgreSQL and is woken by a notification for each later one
// (docs/api/runs.md, events). No stream can wait for a run before the run exists (the stream answers 404
// until then), so its creation notifies nobody: a notifying commit takes PostgreSQL's one notify lock
// through its WAL flush, which every create would otherwise queue on.
describe("a run's first event", () => {
  let h: Harness;
  let auth: Record<string, string>;

  beforeAll(async () => {
    h = await startApi();
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
  }, 60_000);
  afterAll(() => h?.close());

  it('wakes no stream, and the run’s stream still begins with it', async () => {
    const pg = new Client({ connectionString: h.config.databaseUrl });
    await pg.connect();
    const heard: string[] = [];
    pg.on('notification', (n) => heard.push(n.payload ?? ''));
    await pg.query(`listen ${RUN_EVENTS_CHANNEL}`);
    const abort = new AbortController();
    try {
      const agent = await createAgent(h, auth, { presetId: 'general-assistant' });
      const run = await createRun(h, auth, { agentId: agent.id, input: {} });
      // Notifications arrive in commit order: once this marker is heard, the create's would have been.
      const marker = `marker-${run.id}`;
      await pg.query('select pg_notify($1, $2)', [RUN_EVENTS_CHANNEL, marker]);
      await pollUntil(5_000, () => heard.includes(marker), Boolean, 'the marker notification');
      expect(heard).not.toContain(run.id);

      const res = await h.request(`/v1/runs/${run.id}/events`, { headers: auth, signal: abort.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('"status":"queued"')) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      expect(text).toContain('event: run.status');
      expect(text).toContain('"status":"queued"');
    } finally {
      abort.abort();
      await pg.end();
    }
  });
});
