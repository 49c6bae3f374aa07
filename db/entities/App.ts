import { EntitySchema } from '@mikro-orm/core';
import { Agent } from './Agent';
import { BaseEntity } from './BaseEntity';
import { keysetIndex } from './keysetIndex';
import { PriceList } from './PriceList';
import { Workspace } from './Workspace';

export const APP_STATUSES = ['draft', 'published', 'paused'] as const;
export type AppStatus = (typeof APP_STATUSES)[number];

export const FIELD_TYPES = ['text', 'textarea', 'number', 'select', 'file'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One input of an app's public form; `options` only for `select`. */
export interface FormField {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  options?: string[];
  /** A `file` field that takes several files. */
  multiple?: boolean;
}

export interface AppForm {
  fields: FormField[];
}

/** A published app: a public form in front of one agent (docs/api/apps.md). */
export class App extends BaseEntity {
  status: AppStatus = 'draft';
  description: string | null = null;
  priceList: PriceList | null = null;

  constructor(
    public workspace: Workspace,
    public agent: Agent,
    public name: string,
    public slug: string,
    public form: AppForm,
  ) {
    super();
  }
}

export const DOMAIN_STATUSES = ['pending', 'verified'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/**
 * An app's claim to a custom hostname; it serves the app's public face once its TXT record is verified.
 * Several apps may claim one hostname, each with its own value; at most one claim is verified at a time.
 */
export class AppDomain extends BaseEntity {
  status: DomainStatus = 'pending';
  verifiedAt: Date | null = null;

  constructor(
    public app: App,
    public workspace: Workspace,
    public hostname: string,
    /** The value the `_svc-verify.<hostname>` TXT record must hold; public by design, so stored as is. */
    public verificationValue: string,
  ) {
    super();
  }
}

export const AppSchema = new EntitySchema<App, BaseEntity>({
  class: App,
  extends: 'BaseEntity',
  tableName: 'apps',
  // keyset pagination newest first
  indexes: [keysetIndex('apps_workspace_id_created_at_index', 'apps', 'workspace_id')],
  properties: {
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'apps_workspace_id_fkey',
    },
    agent: {
      kind: 'm:1',
      entity: () => Agent,
      deleteRule: 'cascade',
      foreignKeyName: 'apps_agent_id_fkey',
      index: true,
    },
    name: { type: 'string' },
    // slugs are global: /apps/<slug> names one app across every workspace
    slug: { type: 'string', length: 63, unique: true },
    description: { type: 'text', nullable: true },
    status: { type: 'string', length: 16 },
    form: { type: 'json' },
    priceList: {
      kind: 'm:1',
      entity: () => PriceList,
      nullable: true,
      deleteRule: 'set null',
      foreignKeyName: 'apps_price_list_id_fkey',
      index: true,
    },
  },
});

export const AppDomainSchema = new EntitySchema<AppDomain, BaseEntity>({
  class: AppDomain,
  extends: 'BaseEntity',
  tableName: 'app_domains',
  // an app claims a hostname once; a hostname serves one app at a time (the one verified claim)
  uniques: [{ name: 'app_domains_app_id_hostname_unique', properties: ['app', 'hostname'] }],
  indexes: [
    {
      name: 'app_domains_hostname_verified_unique',
      expression: `create unique index "app_domains_hostname_verified_unique" on "app_domains" ("hostname") where "status" = 'verified'`,
    },
  ],
  properties: {
    app: {
      kind: 'm:1',
      entity: () => App,
      deleteRule: 'cascade',
      foreignKeyName: 'app_domains_app_id_fkey',
      index: true,
    },
    workspace: {
      kind: 'm:1',
      entity: () => Workspace,
      deleteRule: 'cascade',
      foreignKeyName: 'app_domains_workspace_id_fkey',
      index: true,
    },
    hostname: { type: 'string', length: 253 },
    verificationValue: { type: 'string', length: 100 },
    status: { type: 'string', length: 16 },
    verifiedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
