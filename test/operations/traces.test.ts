import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../platform/config';
import { startTracing, type Tracing } from '../../platform/tracing';
import { runWorkflowId } from '../../workflows/messages';
import type { Harness } from '../helpers/harness';
import { bearer, createKey, setPlan, signUp } from '../helpers/factories';
import { createAgent, createRun, waitForStatus } from '../helpers/runs';
import { startRunStack, testTaskQueue } from '../helpers/worker';
import { pollUntil } from '../helpers/poll';

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
}

/** An id as OTLP/JSON carries it: hex, or base64 from an exporter that writes bytes. */
const hex = (id: unknown) =>
  typeof id !== 'string' || id === ''
    ? ''
    : /^[0-9a-f]+$/i.test(id)
      ? id.toLowerCase()
      : Buffer.from(id, 'base64').toString('hex');

/** A collector on 127.0.0.1 taking OTLP/HTTP JSON (`POST /v1/traces`), keeping every span it is sent. */
async function startCollector(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || req.method !== 'POST') return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) {
        const service = (rs.resource?.attributes ?? []).find((a: any) => a.key === 'service.name')?.value?.stringValue;
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              traceId: hex(s.traceId),
              spanId: hex(s.spanId),
              parentSpanId: hex(s.parentSpanId),
              name: s.name,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// One run is one trace (docs/operations.md#traces): the request that creates it, its workflow and each activity.
describe('traces', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let tracing: Tracing;
  let h: Harness;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    collector = await startCollector();
    tracing = startTracing(collector.url, 'svc-test');
    const base = loadConfig(process.env);
    ({ h, stop } = await startRunStack(
      {
        observability: { ...base.observability, otlpEndpoint: collector.url },
        temporal: { ...base.temporal, taskQueue: testTaskQueue(), traced: true },
      },
      { tracing },
    ));
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    await tracing?.shutdown();
    await collector?.close();
  });

  it('follows a run from its POST through the workflow to every activity, in one trace', async () => {
    const owner = await signUp(h);
    await setPlan(h, owner.workspaceId, 'scale');
    const auth = bearer(await createKey(h, owner, ['runs:read', 'runs:write', 'agents:write']));
    const agent = await createAgent(h, auth, { presetId: 'scripted' });
    const run = await createRun(h, auth, { agentId: agent.id, input: { script: [{ final: { ok: true } }] } });
    await waitForStatus(h, auth, run.id, 'succeeded');
    await h.temporal.client.workflow.getHandle(runWorkflowId(run.id)).result();

    const request = await pollUntil(
      10_000,
      async () => {
        await tracing.flush();
        return collector.spans.find((s) => s.name === 'POST /v1/runs');
      },
      Boolean,
      'the span of POST /v1/runs',
    );
    const inTrace = () => collector.spans.filter((s) => s.traceId === request!.traceId);
    const names = await pollUntil(
      20_000,
      async () => {
        await tracing.flush();
        return inTrace().map((s) => s.name);
      },
      (n) => n.includes('RunWorkflow:runWorkflow') && n.filter((x) => x.startsWith('RunActivity:')).length >= 2,
      "the run's workflow and activity spans in the request's trace",
    );
    expect(request!.parentSpanId).toBe('');
    expect(names).toEqual(expect.arrayContaining(['StartWorkflow:runWorkflow', 'RunWorkflow:runWorkflow']));
    // every span of the trace hangs from another of it, up to the request
    const ids = new Set(inTrace().map((s) => s.spanId));
    expect(inTrace().filter((s) => s !== request && !ids.has(s.parentSpanId))).toEqual([]);
    // another request is another trace
    await h.request(`/v1/runs/${run.id}`, { headers: auth });
    const read = await pollUntil(
      10_000,
      async () => {
        await tracing.flush();
        return collector.spans.find((s) => s.name === 'GET /v1/runs/:id');
      },
      Boolean,
      'the span of GET /v1/runs/:id',
    );
    expect(read!.traceId).not.toBe(request!.traceId);
  }, 120_000);
});
