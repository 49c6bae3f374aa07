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
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
