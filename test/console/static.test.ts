import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startApi, type Harness } from '../helpers/harness';

// docs/console.md: how the API serves the console's built files, on a build of its own in a temporary directory.
describe('console static files', () => {
  let h: Harness;
  let dir: string;
  const INDEX =
    '<!doctype html><title>svc console</title><script type="module" src="/console/assets/index-abc123.js"></script>';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'svc-console-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
    await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(path.join(dir, '..', 'svc-console-secret.txt'), 'outside').catch(() => undefined);
    h = await startApi({ consoleDir: dir, temporalUiUrl: 'http://127.0.0.1:8233', unverifiedRunLimit: 3 });
  });
  afterAll(async () => {
    await h?.close();
    await rm(dir, { recursive: true, force: true });
    await rm(path.join(dir, '..', 'svc-console-secret.txt'), { force: true });
  });

  it('serves index.html at /console/ without caching, and redirects /console there', async () => {
    const res = await h.request('/console/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);

    const bare = await h.request('/console?x=1', { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/console/?x=1');
  });

  it('answers every client route below /console/ with index.html', async () => {
    for (const route of ['/console/inbox', '/console/runs/7d0f0c4e-1111-4222-8333-944445555666', '/console/keys?x=1']) {
      const res = await h.request(route);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('caches hashed assets for a year and answers a missing one 404 in the error envelope', async () => {
    const res = await h.request('/console/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log("app")');

    const other = await h.request('/console/favicon.svg');
    expect(other.headers.get('content-type')).toBe('image/svg+xml');
    expect(other.headers.get('cache-control')).toBe('no-cache');

    const missing = await h.request('/console/assets/index-old999.js');
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
  });

  it('never serves a file outside the build directory', async () => {
    for (const p of [
      '/console/..%2fsvc-console-secret.txt',
      '/console/%2e%2e/svc-console-secret.txt',
      '/console/../package.json',
    ]) {
      const res = await h.request(p);
      const text = await res.text();
      expect(text).not.toContain('outside');
      expect(text).not.toContain('"name": "svc"');
    }
  });

  it('gives the app its settings in config.json', async () => {
    const res = await h.request('/console/config.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual({
      temporalUiUrl: 'http://127.0.0.1:8233',
      namespace: h.config.temporal.namespace,
      unverifiedRunLimit: 3,
    });
  });

  it("sends the sign-up mail's /verify-email link to the console's landing page", async () => {
    const res = await h.request('/verify-email?token=abc', { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/console/verify-email?token=abc');
  });

  it('leaves writes and the API alone', async () => {
    const post = await h.request('/console/inbox', { method: 'POST', json: {} });
    expect(post.status).toBe(404);
    expect((await post.json()).error.code).toBe('not_found');
    expect((await h.request('/healthz')).status).toBe(200);
  });

  it('says the console is not built when its directory is empty', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'svc-console-empty-'));
    const bare = await startApi({ consoleDir: empty });
    try {
      const res = await bare.request('/console/inbox');
      expect(res.status).toBe(404);
      expect((await res.json()).error.message).toMatch(/not built/);
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
