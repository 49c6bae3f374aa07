import { createCipheriv, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { openHeaders } from '../../domain/flows/headerSecrets';
import { sendOutput } from '../../domain/outputs/delivery';
import { postAttempt } from '../../domain/webhooks/delivery';
import { createSecretBox, parseKeyRing, type SecretKeyRing } from '../../platform/secrets';
import { runAdmin } from '../../scripts/admin';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { startReceiver } from '../helpers/receiver';
import { ok } from '../helpers/responses';
import { samplePostgres, type SampleDatabase } from '../helpers/sampleSources';
import type { FlowStep } from '../../workflows/flowMessages';

/** What the earlier release stored for a data source password: `v1.<iv>.<tag>.<ct>`, no key id, nothing bound. */
function legacySeal(ring: SecretKeyRing, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

// Secrets at rest (platform/secrets.ts, docs/architecture.md "Secrets"): written under key A; the processes
// restarted with B current and A in SVC_SECRETS_KEYS still read them; `secrets:rotate` re-seals them under B;
// with only B configured they still read. A value moved to another row never opens.
describe('secrets at rest', () => {
  const keyA = randomBytes(32).toString('base64');
  const keyB = randomBytes(32).toString('base64');
  const ringA = parseKeyRing(keyA);
  const ringBA = parseKeyRing(keyB, keyA);
  const ringB = parseKeyRing(keyB);
  const webhookSecret = `whsec-${randomUUID()}`;
  const legacyWebhookSecret = `legacy-plain-${randomUUID()}`;
  const outputSecret = `outsec-${randomUUID()}`;
  const flowHeader = `Bearer flow-${randomUUID()}`;
  const legacyFlowHeader = `Bearer legacy-flow-${randomUUID()}`;
  let h: Harness;
  let db: SampleDatabase;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let manager: Record<string, string>;
  const ids = { webhook: '', legacyWebhook: '', output: '', source: '', legacySource: '', flow: '', legacyFlow: '' };

  const api = (ring: SecretKeyRing) =>
    startApi({ secretKeys: ring, allowPrivateEgress: true, allowPrivateWebhooks: true });
  const column = async (table: string, id: string, col = 'secret'): Promise<string> =>
    (await h.orm.em.getConnection().execute(`select ${col} as v from ${table} where id = ?`, [id]))[0].v;
  const setColumn = (table: string, id: string, value: string) =>
    h.orm.em.getConnection().execute(`update ${table} set secret = ? where id = ?`, [value, id]);
  /** Signs one delivery with the subscription's stored secret through `ring`; the receiver checks the signature. */
  const signsWith = async (ring: SecretKeyRing, subscriptionId: string, expected: string) => {
    const before = rx.received.length;
    const body = JSON.stringify({ n: randomUUID() });
    const target = {
      deliveryId: randomUUID(),
      subscriptionId,
      url: rx.url,
      secret: await column('webhook_subscriptions', subscriptionId),
      body,
    };
    const result = await postAttempt(target, 1, { allowPrivate: true, box: createSecretBox(ring) });
    expect(result.error).toBeNull();
    const got = rx.received[before];
    const [t, v1] = String(got.headers['x-svc-signature'])
      .split(',')
      .map((p) => p.split('=')[1]);
    expect(v1).toBe(createHmac('sha256', expected).update(`${t}.${body}`).digest('hex'));
  };
  const sourceWorks = async (hh: Harness, id: string) =>
    expect(
      await ok(hh.request(`/v1/data-sources/${id}/test`, { method: 'POST', headers: manager }), 200),
    ).toMatchObject({ ok: true });

  beforeAll(async () => {
    db = await samplePostgres();
    rx = await startReceiver();
    h = await api(ringA);
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(
      await createKey(h, owner, ['webhooks:manage', 'data_sources:read', 'data_sources:manage', 'flows:manage']),
    );
    const hook = (secret: string) =>
      ok(
        h.request('/v1/webhooks', {
          method: 'POST',
          headers: manager,
          json: { url: rx.url, events: ['run.succeeded'], secret },
        }),
        201,
      );
    ids.webhook = (await hook(webhookSecret)).id;
    ids.legacyWebhook = (await hook(`placeholder-${randomUUID()}`)).id;
    ids.output = (
      await ok(
        h.request('/v1/output-connections', {
          method: 'POST',
          headers: manager,
          json: { name: 'out', type: 'http', url: rx.url, secret: outputSecret },
        }),
        201,
      )
    ).id;
    const source = () =>
      ok(
        h.request('/v1/data-sources', {
          method: 'POST',
          headers: manager,
          json: { name: 'db', type: 'postgres', config: { ...db, ssl: false } },
        }),
        201,
      );
    ids.source = (await source()).id;
    ids.legacySource = (await source()).id;
    const flow = (authorization: string) =>
      ok(
        h.request('/v1/flows', {
          method: 'POST',
          headers: manager,
          json: {
            name: 'notify',
            trigger: { type: 'manual' },
            steps: [
              { name: 'post', type: 'http', method: 'POST', url: rx.url, headers: { Authorization: authorization } },
            ],
          },
        }),
        201,
      );
    ids.flow = (await flow(flowHeader)).id;
    ids.legacyFlow = (await flow('placeholder')).id;
    // a flow saved before header values were sealed holds them in the clear
    await h.orm.em
      .getConnection()
      .execute(
        `update flows set steps = jsonb_set(steps, '{0,headers,Authorization}', to_jsonb(?::text)) where id = ?`,
        [legacyFlowHeader, ids.legacyFlow],
      );
    // rows as the earlier release left them: a plaintext webhook secret, a password in the v1 format
    await setColumn('webhook_subscriptions', ids.legacyWebhook, legacyWebhookSecret);
    await setColumn('data_sources', ids.legacySource, legacySeal(ringA, db.password));
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await rx.close();
  });

  it('stores every secret sealed under the current key, bound to its row, and never shows it', async () => {
    const sealedA = new RegExp(`^v2\\.${ringA.current.kid}\\.`);
    expect(await column('webhook_subscriptions', ids.webhook)).toMatch(sealedA);
    expect(await column('output_connections', ids.output)).toMatch(sealedA);
    expect(await column('data_sources', ids.source)).toMatch(sealedA);
    for (const path of [
      '/v1/webhooks',
      '/v1/output-connections',
      `/v1/output-connections/${ids.output}`,
      '/v1/data-sources',
    ]) {
      const text = await (await h.request(path, { headers: manager })).text();
      for (const s of [webhookSecret, outputSecret, db.password]) expect(text).not.toContain(s);
    }
    await signsWith(ringA, ids.webhook, webhookSecret);
    await signsWith(ringA, ids.legacyWebhook, legacyWebhookSecret);
    await sourceWorks(h, ids.source);
    await sourceWorks(h, ids.legacySource);
  });

  it('reads under a new key with the old one listed, rotates, then reads with the new key alone', async () => {
    const during = await api(ringBA);
    try {
      await sourceWorks(during, ids.source);
      await sourceWorks(during, ids.legacySource);
      await signsWith(ringBA, ids.webhook, webhookSecret);
      await signsWith(ringBA, ids.legacyWebhook, legacyWebhookSecret);

      const report = await runAdmin(during.orm, ['secrets:rotate'], ringBA);
      expect(report).toContain(`sealed under key ${ringB.current.kid}`);
      // (other tests' rows in this database are sealed under the suite's own key, which these rings lack: they
      // count as `failed` and are left as they are; each row of this test is checked below)
      expect(report).toMatch(/webhook_subscriptions\.secret\s+resealed [2-9]\d*/);
      expect(report).toMatch(/data_sources\.secret\s+resealed [2-9]\d*/);
      expect(report).toMatch(/output_connections\.secret\s+resealed [1-9]\d*/);
      expect(report).toMatch(/flows\.steps \(http headers\)\s+resealed [2-9]\d*/);
      const again = await runAdmin(during.orm, ['secrets:rotate'], ringBA);
      expect(again).not.toMatch(/resealed [1-9]/);
    } finally {
      await during.close();
    }
    const sealedB = new RegExp(`^v2\\.${ringB.current.kid}\\.`);
    for (const [table, id] of [
      ['webhook_subscriptions', ids.webhook],
      ['webhook_subscriptions', ids.legacyWebhook],
      ['output_connections', ids.output],
      ['data_sources', ids.source],
      ['data_sources', ids.legacySource],
    ]) {
      expect(await column(table, id)).toMatch(sealedB);
    }
    const headerOf = async (id: string) => {
      const steps = JSON.parse(JSON.stringify(await column('flows', id, 'steps'))) as FlowStep[];
      return openHeaders(createSecretBox(ringB), id, steps[0] as Extract<FlowStep, { type: 'http' }>).Authorization;
    };
    expect(await headerOf(ids.flow)).toBe(flowHeader);
    expect(await headerOf(ids.legacyFlow)).toBe(legacyFlowHeader);
    expect(JSON.stringify(await column('flows', ids.legacyFlow, 'steps'))).not.toContain('legacy-flow');
    const after = await api(ringB);
    try {
      await sourceWorks(after, ids.source);
      await sourceWorks(after, ids.legacySource);
      await signsWith(ringB, ids.webhook, webhookSecret);
      await signsWith(ringB, ids.legacyWebhook, legacyWebhookSecret);
    } finally {
      await after.close();
    }
  });

  it('refuses a value moved to another row: the API answers, nothing is sent, nothing leaks', async () => {
    const hB = await api(ringB);
    try {
      // a password copied onto another data source
      await setColumn('data_sources', ids.legacySource, await column('data_sources', ids.source));
      const tested = await ok(
        hB.request(`/v1/data-sources/${ids.legacySource}/test`, { method: 'POST', headers: manager }),
        200,
      );
      expect(tested).toMatchObject({ ok: false, error: expect.stringContaining('cannot be decrypted') });
      // a webhook secret copied onto an output connection: the delivery fails, unsent
      await setColumn('output_connections', ids.output, await column('webhook_subscriptions', ids.webhook));
      const before = rx.received.length;
      const sent = await sendOutput(
        hB.orm.em.fork(),
        (
          await hB.orm.em
            .getConnection()
            .execute(`select workspace_id from output_connections where id = ?`, [ids.output])
        )[0].workspace_id,
        ids.output,
        { a: 1 },
        { runId: randomUUID() },
        {
          allowPrivate: true,
          box: createSecretBox(ringB),
        },
      );
      expect(sent).toMatchObject({ outcome: 'attempt_failed', error: 'the stored secret cannot be decrypted' });
      expect(rx.received.length).toBe(before);
      const logs = [...h.logs, ...hB.logs].join('\n');
      for (const s of [webhookSecret, legacyWebhookSecret, outputSecret, db.password]) expect(logs).not.toContain(s);
    } finally {
      await hB.close();
    }
  });
});
