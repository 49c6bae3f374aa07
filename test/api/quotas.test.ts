import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { File } from '../../db/entities/File';
import { PLAN_QUOTAS, Workspace } from '../../db/entities/Workspace';
import { bearer, createKey, signUp, type Account } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createAgent } from '../helpers/runs';

type Headers = Record<string, string>;

// Per-plan quotas (docs/api/limits.md#quotas): parallel creates never pass a cap, the refusal is 409
// `conflict` with `details.quota`, and deleting frees the quota. A new workspace is on the free trial.
describe('quotas', () => {
  let h: Harness;
  let storageDir: string;
  beforeAll(async () => {
    storageDir = await mkdtemp(path.join(tmpdir(), 'svc-quota-'));
    h = await startApi({ storageUrl: pathToFileURL(storageDir).href });
  });
  afterAll(() => h.close());

  const call = (method: string, p: string, headers: Headers, json?: unknown) => h.request(p, { method, headers, json });
  const trial = PLAN_QUOTAS.free_trial;

  async function flowsAccount(): Promise<{ auth: Headers; agentId: string }> {
    const owner = await signUp(h);
    const auth = bearer(await createKey(h, owner, ['flows:read', 'flows:manage', 'agents:read', 'agents:write']));
    return { auth, agentId: (await createAgent(h, auth, {})).id };
  }
  const flow = (agentId: string, trigger: Record<string, unknown> = { type: 'manual' }) => ({
    name: `f-${randomUUID()}`,
    trigger,
    steps: [{ name: 'a', type: 'agent', agentId, input: { text: 'hi' } }],
  });

  it('lets parallel flow creates reach the plan cap and no further', async () => {
    const { auth, agentId } = await flowsAccount();
    const answers = await Promise.all(
      Array.from({ length: trial.flows + 4 }, () => call('POST', '/v1/flows', auth, flow(agentId))),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(trial.flows).fill(201), ...Array(4).fill(409)]);
    const refused = await answers.find((r) => r.status === 409)!.json();
    expect(refused.error).toMatchObject({
      code: 'conflict',
      details: { quota: { name: 'flows', limit: trial.flows, used: trial.flows, requested: 1 } },
    });
    const list = await ok(call('GET', '/v1/flows?limit=100', auth), 200);
    expect(list.flows).toHaveLength(trial.flows);
    expect((await call('DELETE', `/v1/flows/${list.flows[0].id}`, auth)).status).toBe(204);
    await ok(call('POST', '/v1/flows', auth, flow(agentId)), 201);
  });

  it('refuses a schedule that fires more often than SVC_MIN_SCHEDULE_MINUTES and caps schedules', async () => {
    const { auth, agentId } = await flowsAccount();
    // the last fires at 23:59 and at 00:00 the next day
    for (const cron of ['* * * * *', '*/4 * * * *', '0,3 * * * *', '0,59 0,23 * * *']) {
      const e = await error(
        call('POST', '/v1/flows', auth, flow(agentId, { type: 'schedule', cron })),
        400,
        'validation_error',
      );
      expect(e.details.issues).toEqual([{ path: 'trigger.cron', message: expect.stringContaining('every 5 minutes') }]);
    }
    const manual = await ok(call('POST', '/v1/flows', auth, flow(agentId)), 201);
    const everyMinute = { type: 'schedule', cron: '* * * * *' };
    await error(call('PATCH', `/v1/flows/${manual.id}`, auth, { trigger: everyMinute }), 400, 'validation_error');

    const answers = await Promise.all(
      Array.from({ length: trial.schedules + 2 }, () =>
        call('POST', '/v1/flows', auth, flow(agentId, { type: 'schedule', cron: '*/5 * * * *' })),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(trial.schedules).fill(201), ...Array(2).fill(409)]);
    const e = await error(
      call('PATCH', `/v1/flows/${manual.id}`, auth, { trigger: { type: 'schedule', cron: '0 * * * *' } }),
      409,
      'conflict',
    );
    expect(e.details.quota).toEqual({ name: 'schedules', limit: trial.schedules, used: trial.schedules, requested: 1 });
  });

  it('counts every byte of the library against the storage quota, under concurrency', async () => {
    const owner: Account = await signUp(h);
    const auth = bearer(await createKey(h, owner, ['files:read', 'files:write']));
    // the library is almost full: room for three more 1000-byte files
    const em = h.orm.em.fork();
    const workspace = em.getReference(Workspace, owner.workspaceId);
    const size = trial.storageBytes - 3500;
    const big = new File(workspace, 'big.bin', 'application/octet-stream', size, 'a'.repeat(64), randomUUID());
    await em.persist(big).flush();
    const before = (await readdir(storageDir, { recursive: true })).length;

    const upload = () =>
      h.request('/v1/files', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream', 'x-filename': 'x.bin' },
        body: new Uint8Array(1000),
      });
    const answers = await Promise.all(Array.from({ length: 6 }, upload));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    const refused = await answers.find((r) => r.status === 409)!.json();
    expect(refused.error.details.quota).toEqual({
      name: 'storageBytes',
      limit: trial.storageBytes,
      used: trial.storageBytes - 500,
      requested: 1000,
    });
    // refused uploads leave no bytes behind
    const stored = await readdir(storageDir, { recursive: true, withFileTypes: true });
    expect(stored.filter((e) => e.isFile()).length).toBeLessThanOrEqual(before + 3);

    const created = await Promise.all(answers.filter((r) => r.status === 201).map((r) => r.json()));
    expect((await call('DELETE', `/v1/files/${created[0].id}`, auth)).status).toBe(204);
    await ok(upload(), 201);
    await error(upload(), 409, 'conflict');
  });
});
