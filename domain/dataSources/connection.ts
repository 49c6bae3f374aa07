import type { EntityManager } from '@mikro-orm/postgresql';
import type { DatabaseConfig, DataSource } from '../../db/entities/DataSource';
import { NotPublicAddressError, resolvePublicHost, type Resolver } from '../../platform/net/publicAddress';
import type { SecretBox } from '../../platform/secrets';
import { secretSlot } from '../../db/secretColumns';
import { ApiError, errors } from '../errors';
import { openMysql } from './drivers/mysql';
import { openPostgres } from './drivers/postgres';
import { MAX_READ_BYTES } from './drivers/budget';
import { openSheets } from './drivers/sheets';
import type { Driver } from './drivers/types';

/** What reaching a data source needs: the secrets' box and the outbound guard's settings. */
export interface SourceDeps {
  box: SecretBox;
  /** `SVC_ALLOW_PRIVATE_EGRESS`: database hosts may be private addresses (tests, local development). */
  allowPrivate: boolean;
  resolver?: Resolver;
  /** Bytes of rows one read may answer (`SVC_MAX_READ_BYTES`); 10 MiB when not given. */
  maxReadBytes?: number;
}

/** A failure of the source itself (unreachable, refused credentials, a statement it rejected). */
export class SourceFailure extends Error {
  constructor(
    message: string,
    /** The source refused a value of the read (a type it cannot compare): the caller's 400, not the source's fault. */
    readonly badValue = false,
  ) {
    super(message);
    this.name = 'SourceFailure';
  }
}

/** `text` with every occurrence of each secret replaced, so driver messages can be shown and stored. */
export function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s.length > 0) out = out.split(s).join('***');
  return out.slice(0, 1000);
}

// SQLSTATE classes of a value the source cannot take: 22 data exception, 42883 no such operator for the type.
const BAD_VALUE_STATES = /^(22|42883)/;

function failure(err: unknown, secrets: string[]): SourceFailure {
  if (err instanceof NotPublicAddressError) return new SourceFailure(err.message);
  const e = err as { message?: unknown; code?: unknown; sqlState?: unknown };
  const message = scrub(typeof e.message === 'string' && e.message ? e.message : String(err), secrets);
  const state = typeof e.code === 'string' ? e.code : typeof e.sqlState === 'string' ? e.sqlState : '';
  return new SourceFailure(message, BAD_VALUE_STATES.test(state));
}

/**
 * Opens a driver for `source` and runs `fn` with it, closing it after. Database hosts pass the
 * public-address guard (unless `allowPrivate`) and the connection goes to the checked address.
 * @throws {SourceFailure} for anything the source did, with its password scrubbed from the message
 */
export async function withSource<T>(
  em: EntityManager,
  deps: SourceDeps,
  source: DataSource,
  fn: (driver: Driver) => Promise<T>,
): Promise<T> {
  const maxReadBytes = deps.maxReadBytes ?? MAX_READ_BYTES;
  if (source.type === 'file') return fn(openSheets(em, source.id, maxReadBytes));
  const config = source.config as DatabaseConfig;
  let password = '';
  try {
    if (source.secret) password = deps.box.open(source.secret, secretSlot('data_sources', source.id, 'secret'));
  } catch {
    throw new SourceFailure(
      'the stored password cannot be decrypted: its key is not configured (SVC_SECRETS_KEY, SVC_SECRETS_KEYS) or the value was altered',
    );
  }
  const secrets = [password];
  let driver: Driver;
  try {
    const address = await resolvePublicHost(config.host, { allowPrivate: deps.allowPrivate, resolver: deps.resolver });
    const target = { ...config, ssl: config.ssl === true, password, address, maxReadBytes };
    driver = source.type === 'postgres' ? await openPostgres(target) : await openMysql(target);
  } catch (err) {
    throw failure(err, secrets);
  }
  try {
    return await fn(driver);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw failure(err, secrets);
  } finally {
    await driver.close();
  }
}

/**
 * A source failure as the API answers it: a value the source could not take is 400 `validation_error`
 * at `where`; anything else is 409 `conflict` saying the source failed (docs/api/data-sources.md).
 */
export function sourceError(err: unknown): unknown {
  if (!(err instanceof SourceFailure)) return err;
  if (err.badValue) return errors.validation([{ path: 'where', message: err.message }]);
  return errors.conflict(`The data source failed: ${err.message}`, { source: 'error' });
}
