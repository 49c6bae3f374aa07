/** Shapes of published apps and their custom domains (the service's docs/api/apps.md). */

export type AppStatus = 'draft' | 'published' | 'paused';
export type AppFieldType = 'text' | 'textarea' | 'number' | 'select' | 'file';

/** One input of an app's public form; `options` only (and always) for `select`, `multiple` only for `file`. */
export interface AppFormField {
  name: string;
  label: string;
  type: AppFieldType;
  required: boolean;
  options?: string[];
  /** A `file` field that takes several files. */
  multiple?: boolean;
}

export interface AppForm {
  fields: AppFormField[];
}

/** A custom hostname of an app and the TXT record that verifies it. */
export interface AppDomain {
  hostname: string;
  status: 'pending' | 'verified';
  verification: { type: 'TXT'; name: string; value: string };
  verifiedAt: string | null;
  createdAt: string;
}

/** What `client.apps.verifyDomain` answers: the domain and whether the TXT record was found. */
export interface AppDomainCheck extends AppDomain {
  check: { ok: boolean; message: string };
}

export interface App {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  agentId: string;
  status: AppStatus;
  form: AppForm;
  priceListId: string | null;
  domains: AppDomain[];
  /** The public page's path on the service (`/apps/<slug>`). */
  publicUrl: string;
  createdAt: string;
  updatedAt: string;
}

/** `client.apps.create`: `name` and `form` may come from a template instead. */
export interface AppCreateParams {
  templateId?: string;
  name?: string;
  slug: string;
  description?: string | null;
  agentId: string;
  form?: AppForm;
  priceListId?: string | null;
}

export type AppUpdateParams = Partial<Omit<AppCreateParams, 'templateId'>>;

export interface AppTemplate {
  id: string;
  name: string;
  description: string;
  form: AppForm;
}

/** Runs made through an app between two days, their cost, and what its price list bills. */
export interface AppUsage {
  appId: string;
  from: string;
  to: string;
  runs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  priceListId: string | null;
  billedUsd: number | null;
}
