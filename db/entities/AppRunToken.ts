import { EntitySchema } from '@mikro-orm/core';
import { App } from './App';
import { BaseEntity } from './BaseEntity';
import { Run } from './Run';

/**
 * The bearer of a run started through an app's public page: only the SHA-256 of the random token handed to
 * the submitter is kept, as for sessions, so the status page can be opened by whoever holds the link alone.
 */
export class AppRunToken extends BaseEntity {
  constructor(
    public run: Run,
    public app: App,
    public tokenHash: string,
  ) {
    super();
  }
}

export const AppRunTokenSchema = new EntitySchema<AppRunToken, BaseEntity>({
  class: AppRunToken,
  extends: 'BaseEntity',
  tableName: 'app_run_tokens',
  properties: {
    run: {
      kind: 'm:1',
      entity: () => Run,
      deleteRule: 'cascade',
      foreignKeyName: 'app_run_tokens_run_id_fkey',
      unique: true,
    },
    app: {
      kind: 'm:1',
      entity: () => App,
      deleteRule: 'cascade',
      foreignKeyName: 'app_run_tokens_app_id_fkey',
      index: true,
    },
    tokenHash: { type: 'string', length: 64 },
  },
});
