/**
 * What /v1/openapi.json says beyond the shapes the client checks (test/client/openapi.test.ts): the public app
 * pages, the links from every create to what it made (the fuzzer's stateful phase follows them,
 * docs/testing.md), the headers a request may send and a response carries.
 */
import { startApi, type Harness } from '../helpers/harness';

type Parameter = { name: string; in: string; required?: boolean; schema?: Record<string, unknown> };
type Link = { operationId: string; parameters?: Record<string, string>; requestBody?: unknown };
type Response = {
  content?: Record<string, { schema?: Record<string, unknown> }>;
  headers?: Record<string, { required?: boolean }>;
  links?: Record<string, Link>;
};
type Operation = {
  operationId: string;
  security: unknown[];
  parameters: Parameter[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, Response>;
};
type Doc = { paths: Record<string, Record<string, Operation>> };

let h: Harness;
let doc: Doc;
beforeAll(async () => {
  h = await startApi();
  doc = (await (await h.request('/v1/openapi.json')).json()) as Doc;
}, 60_000);
afterAll(() => h?.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

describe('/v1/openapi.json', () => {
  it("declares the published apps' public pages, without security, with their own answers", () => {
    const form = doc.paths['/apps/{slug}']?.get;
    const submit = doc.paths['/apps/{slug}/runs']?.post;
    const status = doc.paths['/apps/{slug}/runs/{runId}']?.get;
    for (const op of [form, submit, status]) {
      expect(op).toBeDefined();
      expect(op!.security).toEqual([]);
      expect(Object.keys(op!.responses)).not.toContain('401');
    }
    expect(Object.keys(form!.responses['200'].content!)).toEqual(['text/html']);
    expect(Object.keys(submit!.requestBody!.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(Object.keys(submit!.responses)).toEqual(expect.arrayContaining(['200', '201', '303', '404', '409', '429']));
    expect(submit!.parameters.map((p) => p.name)).toContain('Idempotency-Key');
    const token = status!.parameters.find((p) => p.name === 'token');
    expect(token).toMatchObject({ in: 'query', required: true });
    expect(Object.keys(status!.responses['200'].content!).sort()).toEqual(['application/json', 'text/html']);
  });

  it('links every create to each operation on what it made', () => {
    const byId = new Map(operations().map((o) => [o.op.operationId, o]));
    const linked = new Set<string>();
    for (const { op } of operations()) {
      for (const link of Object.values(op.responses['201']?.links ?? {})) {
        const target = byId.get(link.operationId);
        expect({ link: link.operationId, exists: Boolean(target) }).toEqual({ link: link.operationId, exists: true });
        // every path parameter of the target is bound (the rest a client, or the fuzzer, fills in itself)
        const needed = target!.op.parameters.filter((p) => p.in === 'path');
        const bound = Object.keys(link.parameters ?? {});
        expect({
          link: link.operationId,
          unbound: needed.map((p) => p.name).filter((n) => !bound.includes(n)),
        }).toEqual({ link: link.operationId, unbound: [] });
        linked.add(link.operationId);
      }
    }
    // An operation on `<collection>/{id}…` whose collection has a create must be reachable from it.
    const unreachable = operations().filter(({ path, op }) => {
      const last = /^(.*)\/\{[A-Za-z0-9_]+\}(?:\/[^{}]*)?$/.exec(path);
      return last && doc.paths[last[1]]?.post?.responses['201'] && !linked.has(op.operationId);
    });
    expect(unreachable.map(({ method, path }) => `${method.toUpperCase()} ${path}`)).toEqual([]);
    // the ones the stateful phase most needs, spelled out
    const from = (path: string) => Object.keys(doc.paths[path].post.responses['201'].links ?? {});
    expect(from('/v1/runs')).toEqual(
      expect.arrayContaining(['getV1RunsId', 'getV1RunsIdOutput', 'getV1RunsIdSteps', 'postV1RunsIdCancel']),
    );
    expect(from('/v1/agents')).toEqual(
      expect.arrayContaining(['getV1AgentsId', 'patchV1AgentsId', 'getV1AgentsIdVersions', 'postV1Runs']),
    );
    expect(from('/v1/webhooks')).toEqual(expect.arrayContaining(['getV1WebhooksIdDeliveries', 'deleteV1WebhooksId']));
    // a create whose resource lives in a collection of its own (an eval made under its agent)
    expect(from('/v1/agents/{id}/evals')).toEqual(expect.arrayContaining(['getV1EvalsId', 'deleteV1EvalsId']));
    expect(doc.paths['/apps/{slug}/runs'].post.responses['201'].links?.getAppsSlugRunsRunId).toEqual({
      operationId: 'getAppsSlugRunsRunId',
      parameters: { slug: '$request.path.slug', runId: '$response.body#/runId', token: '$response.body#/token' },
    });
  });

  it('says what a raw upload needs: the X-Filename header, or the multipart alternative', () => {
    for (const path of ['/v1/files', '/v1/data-sources/{id}/files']) {
      const upload = doc.paths[path].post;
      expect(upload.parameters.find((p) => p.name === 'X-Filename')).toMatchObject({ in: 'header' });
      expect(Object.keys(upload.requestBody!.content).sort()).toEqual([
        'application/octet-stream',
        'multipart/form-data',
      ]);
    }
  });

  it('declares Idempotency-Key where it is honoured, and nowhere else', () => {
    const takesKey = (path: string, method = 'post') =>
      doc.paths[path][method].parameters.some((p) => p.name === 'Idempotency-Key' && p.in === 'header');
    expect(takesKey('/v1/runs')).toBe(true);
    expect(takesKey('/v1/webhooks')).toBe(true);
    expect(takesKey('/apps/{slug}/runs')).toBe(true);
    // sign-in has no workspace to keep a key in, and a provider's callback is never retried by a client of ours
    expect(takesKey('/v1/console/auth/sign-in')).toBe(false);
    expect(takesKey('/hooks/phone/{numberId}/{token}')).toBe(false);
    expect(takesKey('/v1/runs', 'get')).toBe(false);
  });

  it("declares the response headers: a request id on every answer, the rate limit's, Retry-After", () => {
    for (const { op } of operations()) {
      for (const response of Object.values(op.responses))
        expect(response.headers?.['X-Request-Id']?.required).toBe(true);
    }
    const list = doc.paths['/v1/runs'].get.responses;
    expect(Object.keys(list['200'].headers!)).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
    expect(Object.keys(list['429'].headers!)).toContain('Retry-After');
  });
  it('says which strings are URLs and which shapes a value takes', () => {
    const json = (op: Operation, status?: string) =>
      (status ? op.responses[status].content : op.requestBody!.content)!['application/json'] as {
        schema: Record<string, any>;
      };
    expect(json(doc.paths['/v1/webhooks'].post).schema.properties.url.format).toBe('uri');
    expect(json(doc.paths['/v1/webhooks'].post, '201').schema.properties.url.format).toBe('uri');
    expect(json(doc.paths['/apps/{slug}/runs'].post, '201').schema.properties.statusUrl.format).toBe('uri');
    const connection = json(doc.paths['/v1/output-connections'].post).schema;
    expect(connection.oneOf.map((s: any) => s.properties.type.const).sort()).toEqual(['http', 'saved_table']);
    expect(connection.oneOf.find((s: any) => s.properties.type.const === 'http').properties.url.format).toBe('uri');
    const pending = json(doc.paths['/v1/runs/{id}'].get, '200').schema.properties.pendingAction;
    const kinds = pending.anyOf.find((s: any) => s.oneOf).oneOf.map((s: any) => s.properties.type.const);
    expect(kinds.sort()).toEqual(['approval', 'input', 'review']);
  });
});
