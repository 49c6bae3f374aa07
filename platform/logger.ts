import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. We never log headers or bodies; the redaction list is a second guard so a
 * secret that slips into a log object (a key, a password, a cookie, a webhook secret) is masked.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'svc' },
      redact: {
        paths: [
          '*.authorization',
          '*.cookie',
          '*.password',
          '*.secret',
          '*.key',
          '*.token',
          'authorization',
          'cookie',
          'password',
          'secret',
          'key',
          'token',
          // a mail's text carries one-time links (platform/mailer.ts)
          'mail.text',
          '*.mail.text',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? bufferedStdout(),
  );
}

/** Written at least this often; a line waits no longer than this to reach stdout. */
const FLUSH_MS = 50;

/**
 * Stdout, written in batches: the API writes one access log line per request, and a write per line was a
 * good share of a `GET /v1/runs/{id}`'s CPU (bench/README.md, case 4). Lines gather until 8 KiB or the
 * next flush, at most `FLUSH_MS` later; pino flushes what is left when the process exits (its exit hook
 * for asynchronous destinations), so only a SIGKILL can lose the last few milliseconds' lines.
 */
function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: process.stdout.fd ?? 1, minLength: 8 * 1024, sync: false });
  // `_len` is what waits in the buffer: flushing an empty one would still make a write
  const state = stream as unknown as { _len?: number; destroyed?: boolean };
  setInterval(() => {
    if (state._len !== 0 && !state.destroyed) stream.flush();
  }, FLUSH_MS).unref();
  return stream;
}
