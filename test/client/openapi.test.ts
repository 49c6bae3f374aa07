/**
 * The client cannot drift from the service: the OpenAPI document served by the REAL app must declare
 * every request the client sends, with response properties (names, required-ness and nullability) equal to
 * the client's types; and the client, with the method→type table, must compile.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Svc } from '../../client/src/index.js';
import { startApi, type Harness } from '../helpers/harness';
import { CLIENT_CALLS, INTERNAL_METHODS, NESTED, NOT_IN_CLIENT, recordRequests, type Recorded } from './client-routes';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
};
type Operation = { responses: Record<string, { content?: Record<string, { schema: Schema }> }> };
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

let h: Harness;
let doc: Doc;
const recordings = new Map<string, Recorded[]>();

beforeAll(async () => {
  h = await startApi();
  const res = await h.request('/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
  for (const entry of CLIENT_CALLS) recordings.set(entry.name, await recordRequests(entry));
});
afterAll(() => h?.close());

/** The document's path template for a concrete path: literal segments must match, `{param}` takes one. */
function templateFor(path: string): string | undefined {
  const matches = Object.keys(doc.paths).filter((t) => new RegExp(`^${t.replace(/\{[^{}]+\}/g, '[^/]+')}$`).test(path));
  // the most literal template wins (/v1/usage/balance over a hypothetical /v1/usage/{x})
  return matches.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

function operation(req: Recorded): { key: string; op: Operation | undefined } {
  const template = templateFor(req.path);
  return {
    key: `${req.method} ${template ?? req.path}`,
    op: template ? doc.paths[template]?.[req.method.toLowerCase()] : undefined,
  };
}

/** The object schema inside `schema`: the non-null branch of a nullable, the items of an array. */
function objectOf(schema: Schema): Schema {
  if (schema.anyOf) return objectOf(schema.anyOf.find((s) => s.type !== 'null')!);
  return schema;
}

/**
 * Whether a value of this schema may be `null`: a `null` type or enum member, a nullable branch of
 * `anyOf`/`oneOf`, or a schema that constrains nothing (`{}`, how `z.unknown()` is documented).
 */
function nullable(schema: Schema): boolean {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.some(nullable);
  if (Array.isArray(schema.type)) return schema.type.includes('null');
  if (schema.type !== undefined) return schema.type === 'null';
  if (schema.enum) return schema.enum.includes(null);
  if ('const' in schema) return schema.const === null;
  expect(schema.$ref).toBeUndefined(); // the document inlines its schemas; a reference would need resolving
  return true;
}

/**
 * `{ name: 'required' | 'optional' }` of an object schema, with `|null` when the property may be null, as
 * the client's field maps say it.
 */
function fieldsOf(schema: Schema): Record<string, string> {
  const object = objectOf(schema);
  expect(object.properties).toBeDefined();
  const required = new Set(object.required ?? []);
  return Object.fromEntries(
    Object.entries(object.properties!).map(([k, property]) => [
      k,
      `${required.has(k) ? 'required' : 'optional'}${nullable(property) ? '|null' : ''}`,
    ]),
  );
}

/** The JSON schemas of the operation's 2xx responses (a response without a body has none). */
function successSchemas(op: Operation): Array<[string, Schema | undefined]> {
  return Object.entries(op.responses)
    .filter(([status]) => /^2\d\d$/.test(status))
    .map(([status, r]) => [status, r.content?.['application/json']?.schema]);
}

describe('client vs. the served OpenAPI document', () => {
  it('is a 3.1 document that declares the run, webhook and account routes', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const path of ['/v1/runs', '/v1/runs/{id}/events', '/v1/webhooks', '/v1/webhooks/{id}/deliveries'])
      expect(Object.keys(doc.paths)).toContain(path);
  });

  it('has a table entry for every public method of every resource', () => {
    const svc = new Svc({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' });
    const resources = Object.entries(svc).filter(
      ([, v]) => typeof v === 'object' && v !== null && v.constructor.name !== 'HttpClient',
    );
    expect(resources.map(([k]) => k).sort()).toEqual([
      'agents',
      'apiKeys',
      'apps',
      'audit',
      'copilot',
      'dataSources',
      'evals',
      'files',
      'finance',
      'flowRuns',
      'flows',
      'folders',
      'knowledge',
      'localRuns',
      'outputConnections',
      'phone',
      'priceLists',
      'projects',
      'proposals',
      'runs',
      'savedTables',
      'search',
      'tutor',
      'usage',
      'webhooks',
      'whatsapp',
      'workspace',
    ]);
    const methods = resources.flatMap(([name, resource]) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(resource))
        .filter((m) => m !== 'constructor')
        .map((m) => `${name}.${m}`),
    );
    const tabled = CLIENT_CALLS.map((c) => c.name);
    expect(methods.filter((m) => !INTERNAL_METHODS.includes(m)).sort()).toEqual([...tabled].sort());
    expect(new Set(tabled).size).toBe(tabled.length);
  });

  it('calls every operation the document declares, save the named exceptions', () => {
    const called = new Set([...recordings.values()].flat().map((r) => operation(r).key));
    const excepted = (key: string) =>
      NOT_IN_CLIENT.some(([pattern]) => {
        const [method, path] = pattern.split(' ') as [string, string];
        const [m, p] = key.split(' ') as [string, string];
        return (method === '*' || method === m) && (path.endsWith('*') ? p.startsWith(path.slice(0, -1)) : p === path);
      });
    const declared = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(declared.filter((key) => !called.has(key) && !excepted(key)).sort()).toEqual([]);
    // an exception a client method calls is no exception
    expect([...called].filter(excepted)).toEqual([]);
  });

  it.each(CLIENT_CALLS.map((c) => [c.name, c] as const))('%s sends a request the document declares', (name) => {
    const requests = recordings.get(name)!;
    expect(requests.length).toBeGreaterThan(0);
    const undeclared = requests
      .map(operation)
      .filter(({ op }) => !op)
      .map(({ key }) => key);
    expect(undeclared).toEqual([]);
  });

  it.each(CLIENT_CALLS.map((c) => [c.name, c] as const))('%s returns what the document says', (_name, entry) => {
    const requests = recordings.get(entry.name)!;
    const { key, op } = operation(requests[requests.length - 1]!);
    expect(op).toBeDefined();
    const responses = successSchemas(op!);
    expect(responses.length).toBeGreaterThan(0);
    for (const [status, schema] of responses) {
      const where = `${key} → ${status}`;
      if (entry.fields === null) {
        expect([where, schema]).toEqual([where, undefined]); // void or bytes: no JSON body to type
        continue;
      }
      expect([where, schema !== undefined]).toEqual([where, true]);
      let item = schema!;
      if (entry.envelope) {
        // a key the client tolerates either way (e.g. a nextCursor the service may not send yet) is left out
        const keys = Object.keys(item.properties ?? {}).filter((k) => !entry.envelope!.optional?.includes(k));
        expect([where, keys.sort()]).toEqual([where, [...entry.envelope.keys].sort()]);
        item = item.properties![entry.envelope.items]!.items!;
      }
      expect([where, fieldsOf(item)]).toEqual([where, { ...entry.fields }]);
    }
  });

  it.each(NESTED.map(([op, path, fields]) => [`${op} ${path.join('.')}`, op, path, fields] as const))(
    '%s matches the nested client type',
    (_label, opKey, path, fields) => {
      const [method, template] = opKey.split(' ') as [string, string];
      const op = doc.paths[template]?.[method.toLowerCase()];
      expect(op).toBeDefined();
      let schema = successSchemas(op!)[0]![1]!;
      for (const step of path) schema = step === '[]' ? objectOf(schema).items! : objectOf(schema).properties![step]!;
      expect(fieldsOf(schema)).toEqual({ ...fields });
    },
  );

  it('compiles: the client with its package settings, and the method→type table with the client', async () => {
    const root = join(__dirname, '..', '..');
    const tsc = join(root, 'node_modules', '.bin', 'tsc');
    const dir = mkdtempSync(join(tmpdir(), 'svc-client-tsc-'));
    try {
      const table = join(dir, 'tsconfig.json');
      writeFileSync(
        table,
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2022', 'DOM'],
            types: [],
          },
          files: [join(root, 'client', 'src', 'index.ts'), join(__dirname, 'client-routes.ts')],
        }),
      );
      const compile = (args: string[]) =>
        promisify(execFile)(tsc, args, { cwd: root }).then(
          () => '',
          (err: { stdout?: string; message: string }) => err.stdout || err.message,
        );
      const outputs = await Promise.all([
        compile(['-p', join(root, 'client', 'tsconfig.json'), '--noEmit']),
        compile(['-p', table]),
      ]);
      expect(outputs).toEqual(['', '']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
