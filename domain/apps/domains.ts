import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppDomain } from '../../db/entities/App';
import { Workspace } from '../../db/entities/Workspace';
import type { TxtResolver } from '../../platform/net/dnsServers';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findApp } from './find';
import { presentDomain, verificationName, type AppDomainView } from './presenters';

/** Custom domains one app may have. */
export const MAX_DOMAINS_PER_APP = 10;

export interface DomainCheck extends AppDomainView {
  check: { ok: boolean; message: string };
}

async function findDomain(em: EntityManager, identity: Identity, appId: string, hostname: string): Promise<AppDomain> {
  const app = await findApp(em, identity.workspaceId, appId);
  const domain = await em.findOne(AppDomain, { app: app.id, hostname: hostname.toLowerCase() });
  if (!domain) throw errors.notFound('Domain');
  return domain;
}

/**
 * Adds a hostname to an app, `pending` until its TXT record is verified. A hostname belongs to one app
 * (and so one workspace) at a time: one already added anywhere is 409 `conflict`, as is an 11th domain of
 * one app. Throws `not_found` for the app.
 */
export async function addDomain(
  em: EntityManager,
  identity: Identity,
  appId: string,
  hostname: string,
): Promise<AppDomainView> {
  const app = await findApp(em, identity.workspaceId, appId);
  const name = hostname.toLowerCase();
  if ((await em.count(AppDomain, { app: app.id })) >= MAX_DOMAINS_PER_APP) {
    throw errors.conflict(`An app has at most ${MAX_DOMAINS_PER_APP} domains`);
  }
  if (await em.count(AppDomain, { hostname: name })) throw errors.conflict(`The hostname ${name} is taken`);
  const value = `svc-verify=${randomBytes(24).toString('base64url')}`;
  const domain = new AppDomain(app, em.getReference(Workspace, identity.workspaceId), name, value);
  try {
    await em.persist(domain).flush();
  } catch (err) {
    // a concurrent add of the same hostname won
    if (err instanceof UniqueConstraintViolationException) throw errors.conflict(`The hostname ${name} is taken`);
    throw err;
  }
  return presentDomain(domain);
}

/**
 * Looks up `_svc-verify.<hostname>` TXT through the configured resolver (`SVC_DNS_SERVERS`) and marks the
 * domain `verified` when one record equals its value (a record's character-strings joined). A missing record
 * or a failed lookup leaves it as it was and says why in `check`. Throws `not_found`.
 */
export async function verifyDomain(
  em: EntityManager,
  resolveTxt: TxtResolver,
  identity: Identity,
  appId: string,
  hostname: string,
): Promise<DomainCheck> {
  const domain = await findDomain(em, identity, appId, hostname);
  const name = verificationName(domain.hostname);
  let records: string[][];
  try {
    records = await resolveTxt(name);
  } catch {
    return { ...presentDomain(domain), check: { ok: false, message: `The DNS lookup of ${name} failed; try again` } };
  }
  if (!records.some((chunks) => chunks.join('') === domain.verificationValue)) {
    const message = records.length
      ? `No TXT record at ${name} holds the expected value`
      : `No TXT record found at ${name}`;
    return { ...presentDomain(domain), check: { ok: domain.status === 'verified', message } };
  }
  if (domain.status !== 'verified') {
    domain.status = 'verified';
    domain.verifiedAt = new Date();
    domain.updatedAt = new Date();
    await em.flush();
  }
  return { ...presentDomain(domain), check: { ok: true, message: 'Verified' } };
}

/** Removes a hostname from an app; it stops serving the app at once. Throws `not_found`. */
export async function removeDomain(
  em: EntityManager,
  identity: Identity,
  appId: string,
  hostname: string,
): Promise<void> {
  const domain = await findDomain(em, identity, appId, hostname);
  await em.nativeDelete(AppDomain, { id: domain.id });
}
