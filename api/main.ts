import { initOrm } from '../db/orm';
import { createApp } from './app';
import { loadConfig } from '../platform/config';
import { createLogger } from '../platform/logger';
import { createMailer } from '../platform/mailer';
import { startRunRecovery } from '../domain/runs/recovery';
import { createTemporal } from '../platform/temporal';
import { startTracing } from '../platform/tracing';

/** `npm run api`: one API process against running PostgreSQL and Temporal. */
async function main(): Promise<void> {
  const config = loadConfig();
  const endpoint = config.observability.otlpEndpoint;
  const tracing = endpoint ? startTracing(endpoint, 'svc-api') : undefined;
  const logger = createLogger(config.logLevel);
  const orm = await initOrm(config.databaseUrl, config.dbPoolMax);
  const temporal = createTemporal(config.temporal);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger, dir: config.mailDir });
  const { app, close: closeApp } = createApp({ config, orm, logger, temporal, mailer });
  const server = app.listen(config.port, config.host, () => logger.info({ port: config.port }, 'api listening'));
  const recovery = startRunRecovery({ orm, temporal, config, logger });

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'api shutting down');
    recovery.stop();
    server.close(() => {
      void Promise.allSettled([closeApp(), orm.close(), temporal.close()])
        .then(() => tracing?.shutdown())
        .finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error('api failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
