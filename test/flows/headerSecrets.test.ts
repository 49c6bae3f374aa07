import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { startApi, type Harness } from '../helpers/harness';
import { error, ok } from '../helpers/responses';
import { createSecretBox, SecretError } from '../../platform/secrets';
import { HIDDEN_HEADER, openHeaders } from '../../domain/flows/headerSecrets';
import type { FlowStep } from '../../workflows/flowMessages';

type Headers = Record<string, string>;
type HttpStep = Extract<FlowStep, { type: 'http' }>;

// An http step's header values are secrets (docs/api/flows.md#steps): sealed at rest and bound to their
// flow, step and header; answers show the names only; sending the hidden value back keeps the stored one.
describe('flow http step headers', () => {
  let h: Harness;
  let manager: Headers;
  beforeAll(async () => {
    h = await startApi();
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    manager = bearer(await createKey(h, owner, ['flows:read', 'flows:manage']));
  });
  afterAll(() => h.close());

  const call = (method: string, path: string, json?: unknown) => h.request(path, { method, headers: manager, json });
  const step = (headers: Record<string, string>) => ({
    name: 'post',
    type: 'http',
    method: 'POST',
    url: 'https://example.com/hook',
    headers,
  });
  const stored = async (flowId: string): Promise<FlowStep[]> => {
    const [row] = await h.orm.em.fork().getConnection().execute('select steps from flows where id = ?', [flowId]);
    return typeof row.steps === 'string' ? JSON.parse(row.steps) : row.steps;
  };
  const open = (flowId: string, steps: FlowStep[]) =>
    openHeaders(createSecretBox(h.config.secretKeys), flowId, steps[0] as HttpStep);

  it('never shows a value, stores it sealed, and keeps it when the hidden value comes back', async () => {
    const secret = 'Bearer live-token-4b1d';
    const flow = await ok(
      call('POST', '/v1/flows', {
        name: 'Notify',
        trigger: { type: 'manual' },
        steps: [step({ Authorization: secret, 'X-Trace': '{{trigger.id}}' })],
      }),
      201,
    );
    expect(flow.steps[0].headers).toEqual({ Authorization: HIDDEN_HEADER, 'X-Trace': HIDDEN_HEADER });
    const read = await ok(call('GET', `/v1/flows/${flow.id}`), 200);
    expect(JSON.stringify(read)).not.toContain('live-token');
    expect(JSON.stringify(await ok(call('GET', '/v1/flows'), 200))).not.toContain('live-token');

    const rows = await stored(flow.id);
    expect(JSON.stringify(rows)).not.toContain('live-token');
    expect(open(flow.id, rows)).toEqual({ Authorization: secret, 'X-Trace': '{{trigger.id}}' });

    // the steps as read, sent back with one header changed: the hidden one keeps its value
    const changed = await ok(
      call('PATCH', `/v1/flows/${flow.id}`, {
        steps: [{ ...read.steps[0], headers: { Authorization: HIDDEN_HEADER, 'X-Trace': 'fixed' } }],
      }),
      200,
    );
    expect(changed.steps[0].headers).toEqual({ Authorization: HIDDEN_HEADER, 'X-Trace': HIDDEN_HEADER });
    expect(open(flow.id, await stored(flow.id))).toEqual({ Authorization: secret, 'X-Trace': 'fixed' });

    // a hidden value with nothing to keep is refused, and nothing changes
    const refused = await error(
      call('PATCH', `/v1/flows/${flow.id}`, {
        steps: [step({ Authorization: HIDDEN_HEADER, 'X-New': HIDDEN_HEADER })],
      }),
      400,
      'validation_error',
    );
    expect(refused.details.issues.map((i: { path: string }) => i.path)).toEqual(['steps.0.headers.X-New']);
    expect(open(flow.id, await stored(flow.id))).toEqual({ Authorization: secret, 'X-Trace': 'fixed' });
  });

  it("a sealed value copied to another flow's row does not open there", async () => {
    const make = async (value: string) =>
      ok(
        call('POST', '/v1/flows', { name: 'F', trigger: { type: 'manual' }, steps: [step({ Authorization: value })] }),
        201,
      );
    const [a, b] = [await make('Bearer a'), await make('Bearer b')];
    const fromA = await stored(a.id);
    expect(() => open(b.id, fromA)).toThrow(SecretError);
    expect(open(a.id, fromA)).toEqual({ Authorization: 'Bearer a' });
  });
});
