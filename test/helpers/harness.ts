import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { createApp, type AppDeps } from '../../api/app';
import { loadConfig, type Config } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { createMailer } from '../../platform/mailer';
import { createTemporal, type Temporal } from '../../platform/temporal';
import { initOrm, type Orm } from '../../db/orm';
import type { RouteDef } from '../../api/routes/route';

/**
 * One real API process-in-a-test: the app built by `createApp`, listening on 127.0.0.1, backed by the
 * PostgreSQL and Temporal that `npm test` started (DATABASE_URL, TEMPORAL_ADDRESS). Every log line the
 * app writes is captured in `logs`, so tests can assert what was (not) logged.
 */
export interface Harness {
  url: string;
  config: Config;
  orm: Orm;
  temporal: Temporal;
  logs: string[];
  routes: RouteDef[];
  router: ReturnType<typeof createApp>['router'];
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * `listenPort` makes the API listen on that port of 127.0.0.1 instead of one the system picks (a test of
 * the addresses a `PORT` setting gives the console).
 */
export async function startApi(
  overrides: Partial<Config> = {},
  extra: Partial<AppDeps> = {},
  opts: { listenPort?: number } = {},
): Promise<Harness> {
  const base = loadConfig(process.env);
  // Tests create many accounts from one IP and drive a session hard; the tests of these limits set their own values.
  const config: Config = {
    ...base,
    signInRatePerMin: 10_000,
    signUpRatePerMin: 10_000,
    sessionRatePerMin: 10_000,
    sharedRatePerMin: 10_000,
    ...overrides,
  };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const logger = createLogger('info', sink);
  const orm = extra.orm ?? (await initOrm(config.databaseUrl, 5));
  const temporal = extra.temporal ?? createTemporal(config.temporal);
  const mailer = extra.mailer ?? createMailer({ from: config.mailFrom, logger, dir: config.mailDir });
  // Listening first: the URLs the service hands out start with SVC_PUBLIC_URL, this process's own address
  // unless a test sets one, and the app reads it when it is built.
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.listenPort ?? 0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (overrides.publicUrl === undefined) {
    config.publicUrl = url;
    config.consoleOrigins = [...new Set([url, ...config.consoleOrigins])];
  }
  const { app, routes, router, close: closeApp } = createApp({ config, orm, logger, temporal, mailer, ...extra });
  server.on('request', app.callback());
  return {
    url,
    config,
    orm,
    temporal,
    logs,
    routes,
    router,
    request(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(url + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeApp();
      if (!extra.orm) await orm.close(true);
      if (!extra.temporal) await temporal.close().catch(() => undefined);
    },
  };
}
