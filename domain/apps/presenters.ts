import type { App, AppDomain, AppForm, AppStatus, DomainStatus } from '../../db/entities/App';

export interface AppDomainView {
  hostname: string;
  status: DomainStatus;
  verification: { type: 'TXT'; name: string; value: string };
  verifiedAt: string | null;
  createdAt: string;
}

export interface AppView {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  agentId: string;
  status: AppStatus;
  form: AppForm;
  priceListId: string | null;
  domains: AppDomainView[];
  publicUrl: string;
  createdAt: string;
  updatedAt: string;
}

/** The TXT record that proves control of a hostname (docs/api/apps.md#custom-domains). */
export const verificationName = (hostname: string) => `_svc-verify.${hostname}`;

export function presentDomain(d: AppDomain): AppDomainView {
  return {
    hostname: d.hostname,
    status: d.status,
    verification: { type: 'TXT', name: verificationName(d.hostname), value: d.verificationValue },
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  };
}

export function presentApp(app: App, domains: AppDomain[]): AppView {
  return {
    id: app.id,
    name: app.name,
    slug: app.slug,
    description: app.description,
    agentId: app.agent.id,
    status: app.status,
    form: app.form,
    priceListId: app.priceList?.id ?? null,
    domains: domains.map(presentDomain),
    publicUrl: `/apps/${app.slug}`,
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
  };
}
