import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import { ApiError, errors } from '../domain/errors';
import type { AppState } from './context';
import type { Config } from '../platform/config';

export const CONSOLE_PREFIX = '/console';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

// Vite names every file under assets/ by its content hash: a changed file is a new URL, so a year is safe.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// index.html names the current hashed assets: it must be revalidated on every load, or a deploy is not seen.
const REVALIDATE = 'no-cache';

/**
 * Serves the console's built files (docs/console.md) under `/console/`: hashed assets long-cached,
 * `index.html` for every other path below `/console/` (the app's client routes), `config.json` with
 * the few settings the app reads, and `/verify-email` (the link the sign-up mail carries) redirected
 * to the app's landing page. Only GET and HEAD; anything outside `/console` goes on to the API.
 */
export function consoleStatic(
  config: Pick<Config, 'consoleDir' | 'temporalUiUrl' | 'temporal' | 'unverifiedRunLimit'>,
): Middleware<AppState> {
  const root = path.resolve(config.consoleDir);
  const settings = JSON.stringify({
    temporalUiUrl: config.temporalUiUrl ?? null,
    namespace: config.temporal.namespace,
    unverifiedRunLimit: config.unverifiedRunLimit,
  });
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/verify-email') {
      ctx.redirect(`${CONSOLE_PREFIX}/verify-email${ctx.search}`);
      return;
    }
    if (ctx.path === CONSOLE_PREFIX) {
      ctx.redirect(`${CONSOLE_PREFIX}/${ctx.search}`);
      return;
    }
    if (!ctx.path.startsWith(`${CONSOLE_PREFIX}/`)) return next();

    const rel = ctx.path.slice(CONSOLE_PREFIX.length + 1);
    if (rel === 'config.json') {
      ctx.set('Cache-Control', REVALIDATE);
      ctx.type = TYPES['.json'];
      ctx.body = settings;
      return;
    }
    const file = path.resolve(root, rel);
    // `..` or an absolute path never leaves the build directory; such a path is simply an app route.
    const inside = file.startsWith(root + path.sep);
    if (inside && rel !== '' && (await isFile(file))) {
      ctx.set('Cache-Control', rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
      ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      ctx.body = createReadStream(file);
      return;
    }
    // A missing hashed asset is an old URL: 404, not the app's page in place of a script.
    if (rel.startsWith('assets/')) throw errors.notFound('Asset');
    const index = await readFile(path.join(root, 'index.html')).catch(() => null);
    if (!index) throw new ApiError('not_found', 'The console is not built: run `npm --prefix console run build`');
    ctx.set('Cache-Control', REVALIDATE);
    ctx.type = TYPES['.html'];
    ctx.body = index;
  };
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}
