import type { EntityManager } from '@mikro-orm/postgresql';
import { DataSource, type DatabaseConfig, type DataSourceType } from '../../db/entities/DataSource';
import type { SecretBox } from '../../platform/secrets';
import { secretSlot } from '../../db/secretColumns';
import { errors } from '../errors';
import { findPage } from '../shared/pagination';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { presentDataSource, type DataSourceView } from './presenters';

export interface DatabaseConfigInput extends DatabaseConfig {
  password: string;
}

export type CreateDataSourceInput =
  | { name: string; type: 'postgres' | 'mysql'; config: DatabaseConfigInput }
  | { name: string; type: 'file'; config?: Record<string, never> };

/**
 * Loads a data source of the workspace. Throws `not_found` for any other id, another workspace's
 * included.
 */
export async function findDataSource(em: EntityManager, workspaceId: string, id: string): Promise<DataSource> {
  const source = await em.findOne(DataSource, { id, workspaceId });
  if (!source) throw errors.notFound('Data source');
  return source;
}

function splitSecret(config: DatabaseConfigInput): { config: DatabaseConfig; password: string } {
  const { password, ...rest } = config;
  return { config: { ...rest, ssl: rest.ssl === true }, password };
}

/** Creates a data source; a database source's password is sealed (platform/secrets.ts) before it is stored. */
export async function createDataSource(
  em: EntityManager,
  box: SecretBox,
  workspaceId: string,
  input: CreateDataSourceInput,
): Promise<DataSourceView> {
  let source: DataSource;
  if (input.type === 'file') {
    source = new DataSource(workspaceId, input.name, 'file', {});
  } else {
    const { config, password } = splitSecret(input.config);
    source = new DataSource(workspaceId, input.name, input.type as DataSourceType, config);
    source.secret = box.seal(password, secretSlot('data_sources', source.id, 'secret'));
  }
  await em.persist(source).flush();
  return presentDataSource(source);
}

export async function listDataSources(
  em: EntityManager,
  workspaceId: string,
  page: { limit: number; cursor?: string },
): Promise<{ dataSources: DataSourceView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, DataSource, { workspaceId }, page);
  return { dataSources: items.map(presentDataSource), nextCursor };
}

/**
 * Settings that say where the password goes: a new value for any of them needs the password again, so a
 * source moved to another server (or user) never carries the stored password there.
 */
const PASSWORD_BOUND = ['host', 'port', 'user'] as const;

/**
 * Renames a source or changes its connection settings (any subset; a password given replaces the
 * stored one). A changed connection is `untested` again, and is recorded in the audit log as
 * `data_source.credentials_changed`, naming the settings changed (never their values' secret). A file
 * source has no settings: 400.
 * @throws 400 `validation_error` at `config.password` for a new host, port or user without the password
 */
export async function updateDataSource(
  em: EntityManager,
  box: SecretBox,
  workspaceId: string,
  id: string,
  input: { name?: string; config?: Partial<DatabaseConfigInput> },
  audit: AuditContext,
): Promise<DataSourceView> {
  const source = await findDataSource(em, workspaceId, id);
  if (input.name !== undefined) source.name = input.name;
  let changed: string[] = [];
  if (input.config !== undefined && Object.keys(input.config).length > 0) {
    if (source.type === 'file') {
      throw errors.validation([{ path: 'config', message: 'A file data source has no connection settings' }]);
    }
    const { password, ...rest } = input.config;
    const stored = source.config as DatabaseConfig;
    const moved = PASSWORD_BOUND.filter((k) => rest[k] !== undefined && rest[k] !== stored[k]);
    if (moved.length > 0 && password === undefined) {
      throw errors.validation([
        { path: 'config.password', message: `Give the password again when changing ${moved.join(', ')}` },
      ]);
    }
    changed = Object.keys(input.config).filter((k) => input.config![k as keyof DatabaseConfigInput] !== undefined);
    source.config = { ...(source.config as DatabaseConfig), ...rest };
    if (password !== undefined) source.secret = box.seal(password, secretSlot('data_sources', source.id, 'secret'));
    source.status = 'untested';
  }
  source.updatedAt = new Date();
  await em.transactional(async (tx) => {
    await tx.flush();
    if (changed.length === 0) return;
    await recordAudit(tx, audit, {
      action: 'data_source.credentials_changed',
      resourceType: 'data_source',
      resourceId: source.id,
      details: { name: source.name, changed: changed.sort() },
    });
  });
  return presentDataSource(source);
}

/** Deletes a source with its sheets and saved tables (the foreign keys cascade). */
export async function deleteDataSource(em: EntityManager, workspaceId: string, id: string): Promise<void> {
  const source = await findDataSource(em, workspaceId, id);
  await em.nativeDelete(DataSource, { id: source.id });
}
