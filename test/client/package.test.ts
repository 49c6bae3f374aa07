/**
 * The published artefact: builds with the root's TypeScript, packs, and the packed tarball works when
 * imported by name from plain ESM (runtime) and from NodeNext TypeScript (types).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const clientDir = join(root, 'client');
const tsc = join(root, 'node_modules', '.bin', 'tsc');
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-client-pack-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('@svc/client package', () => {
  it('has the manifest of an ESM-only, dependency-free package', () => {
    const pkg = JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: '@svc/client',
      type: 'module',
      sideEffects: false,
      files: ['dist'],
      dependencies: {},
      engines: { node: '>=18' },
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    });
    expect(pkg.exports['.'].require).toBeUndefined();
  });

  it('builds, packs and imports from ESM and NodeNext TypeScript', () => {
    run(tsc, ['-p', join(clientDir, 'tsconfig.json')], root);
    const packed = JSON.parse(
      run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], clientDir),
    );
    const files = (packed[0].files as { path: string }[]).map((f) => f.path).sort();
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files.every((f) => f.startsWith('dist/') || f === 'package.json' || f === 'README.md')).toBe(true);

    const scope = join(work, 'node_modules', '@svc');
    mkdirSync(scope, { recursive: true });
    run('tar', ['-xzf', join(work, packed[0].filename), '-C', scope], work);
    renameSync(join(scope, 'package'), join(scope, 'client'));

    writeFileSync(
      join(work, 'check.mjs'),
      `
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { Svc, SvcError, NotFoundError, verifyWebhookSignature } from '@svc/client';

const body = Buffer.from('{"id":"d1","type":"run.failed"}');
const t = Math.floor(Date.now() / 1000);
const v1 = createHmac('sha256', 'secret-secret-123').update(t + '.').update(body).digest('hex');
// synchronous: a plain boolean, no await
const ok = verifyWebhookSignature('secret-secret-123', 't=' + t + ',v1=' + v1, body);
const bad = verifyWebhookSignature('secret-secret-123', 't=' + t + ',v1=' + v1, body.toString() + ' ');

const server = createServer((req, res) => {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'not_found', message: 'Run not found', requestId: 'rq' } }));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const svc = new Svc({ apiKey: 'k', baseUrl: 'http://127.0.0.1:' + server.address().port });
const err = await svc.runs.get('x').catch((e) => e);
server.close();
const notFound = err instanceof NotFoundError && err instanceof SvcError;
console.log(JSON.stringify({ ok, bad, types: [typeof ok, typeof bad], notFound, code: err.code }));
`,
    );
    expect(JSON.parse(run('node', ['check.mjs'], work))).toEqual({
      ok: true,
      bad: false,
      types: ['boolean', 'boolean'],
      notFound: true,
      code: 'not_found',
    });

    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    writeFileSync(
      join(work, 'consumer.ts'),
      `
import { Svc, verifyWebhookSignature, type Run, type RunStatus } from '@svc/client';
const svc = new Svc({ apiKey: 'k' });
export async function demo(): Promise<RunStatus> {
  const run: Run = await svc.runs.wait('id', {
    onEvent: (e) => void (e.type === 'run.status' ? e.data.status : e.data.index),
  });
  const valid: boolean = verifyWebhookSignature('s', 't=1,v1=00', new Uint8Array());
  // @ts-expect-error the result is a boolean, not a Promise: there is nothing to await or .then()
  void verifyWebhookSignature('s', 't=1,v1=00', '').then;
  return valid ? run.status : 'failed';
}
`,
    );
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    run(tsc, ['-p', join(work, 'tsconfig.json')], work);
  }, 120_000);
});
