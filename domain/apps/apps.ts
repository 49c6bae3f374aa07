import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { App, type AppForm } from '../../db/entities/App';
import { Workspace } from '../../db/entities/Workspace';
import { errors } from '../errors';
import type { Identity } from '../identity/identity';
import { findPage } from '../shared/pagination';
import type { AuditContext } from '../audit/context';
import { recordAudit } from '../audit/record';
import { agentFromBody, domainsOf, findApp, priceListFromBody } from './find';
import { presentApp, type AppView } from './presenters';
import { findTemplate } from './templates';

export interface AppInput {
  templateId?: string;
  name?: string;
  slug: string;
  description?: string | null;
  agentId: string;
  form?: AppForm;
  priceListId?: string | null;
}

export type AppChanges = Partial<Omit<AppInput, 'templateId' | 'slug' | 'agentId'>> & {
  slug?: string;
  agentId?: string;
};

/**
 * Field names must be distinct: they become the keys of the run's input. A form with file fields lists its
 * uploads under `input.fileIds` (docs/api/apps.md#public-pages), so no field of it may take that name.
 */
function checkForm(form: AppForm): void {
  const seen = new Set<string>();
  const hasFiles = form.fields.some((f) => f.type === 'file');
  const issues = form.fields.flatMap((f, i) => {
    if (seen.has(f.name)) return [{ path: `form.fields.${i}.name`, message: `Duplicate field name ${f.name}` }];
    if (hasFiles && f.name === 'fileIds') {
      return [
        { path: `form.fields.${i}.name`, message: 'fileIds lists the uploaded files of a form with file fields' },
      ];
    }
    seen.add(f.name);
    return [];
  });
  if (issues.length) throw errors.validation(issues);
}

/** Saves, turning a slug taken by any workspace's app into 409 `conflict`. */
async function flushSlug(em: EntityManager, slug: string): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw errors.conflict(`The slug ${slug} is taken`);
    throw err;
  }
}

async function view(em: EntityManager, app: App): Promise<AppView> {
  return presentApp(app, (await domainsOf(em, [app.id])).get(app.id) ?? []);
}

/**
 * Creates a draft app, from a template when `templateId` is given (its name, description and form unless
 * the body sets them). Throws `validation_error` for an unknown template, agent or price list, a missing
 * name or form, duplicate field names; `conflict` for a slug already taken.
 */
export async function createApp(em: EntityManager, identity: Identity, input: AppInput): Promise<AppView> {
  const template = input.templateId === undefined ? undefined : findTemplate(input.templateId);
  if (input.templateId !== undefined && !template) {
    throw errors.validation([{ path: 'templateId', message: `Unknown template ${input.templateId}` }]);
  }
  const name = input.name ?? template?.name;
  const form = input.form ?? template?.form;
  const missing = [
    ...(name === undefined ? [{ path: 'name', message: 'Required without a template' }] : []),
    ...(form === undefined ? [{ path: 'form', message: 'Required without a template' }] : []),
  ];
  if (missing.length) throw errors.validation(missing);
  checkForm(form!);
  const agent = await agentFromBody(em, identity.workspaceId, input.agentId);
  const priceList = await priceListFromBody(em, identity.workspaceId, input.priceListId);
  const app = new App(
    em.getReference(Workspace, identity.workspaceId),
    agent,
    name!,
    input.slug,
    structuredClone(form!),
  );
  app.description = input.description !== undefined ? input.description : (template?.description ?? null);
  app.priceList = priceList ?? null;
  em.persist(app);
  await flushSlug(em, input.slug);
  return presentApp(app, []);
}

/** One page of the workspace's apps, newest first. */
export async function listApps(
  em: EntityManager,
  identity: Identity,
  page: { limit: number; cursor?: string },
): Promise<{ apps: AppView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(em, App, { workspace: identity.workspaceId }, page);
  const domains = await domainsOf(
    em,
    items.map((a) => a.id),
  );
  return { apps: items.map((a) => presentApp(a, domains.get(a.id) ?? [])), nextCursor };
}

/** An app of the workspace. Throws `not_found`. */
export async function getApp(em: EntityManager, identity: Identity, id: string): Promise<AppView> {
  return view(em, await findApp(em, identity.workspaceId, id));
}

/** Changes an app; a published app serves the change at once. Same errors as create, plus `not_found`. */
export async function updateApp(
  em: EntityManager,
  identity: Identity,
  id: string,
  changes: AppChanges,
): Promise<AppView> {
  const app = await findApp(em, identity.workspaceId, id);
  if (changes.form !== undefined) checkForm(changes.form);
  if (changes.agentId !== undefined) app.agent = await agentFromBody(em, identity.workspaceId, changes.agentId);
  if (changes.priceListId !== undefined) {
    app.priceList = (await priceListFromBody(em, identity.workspaceId, changes.priceListId)) ?? null;
  }
  if (changes.name !== undefined) app.name = changes.name;
  if (changes.slug !== undefined) app.slug = changes.slug;
  if (changes.description !== undefined) app.description = changes.description;
  if (changes.form !== undefined) app.form = structuredClone(changes.form);
  app.updatedAt = new Date();
  await flushSlug(em, app.slug);
  return view(em, app);
}

/** Deletes an app and its domains; its runs stay (they keep `metadata.appId`). Throws `not_found`. */
export async function deleteApp(em: EntityManager, identity: Identity, id: string): Promise<void> {
  const app = await findApp(em, identity.workspaceId, id);
  await em.nativeDelete(App, { id: app.id });
}

/**
 * Publishes an app (from draft or paused): its public face answers from now on. Publishing a published
 * app changes nothing. Throws `not_found`.
 */
export async function publishApp(
  em: EntityManager,
  identity: Identity,
  id: string,
  audit: AuditContext,
): Promise<AppView> {
  const app = await findApp(em, identity.workspaceId, id);
  await moveStatus(em, app, 'published', audit);
  return view(em, app);
}

/**
 * Moves an app to `to` unless it is there already, with its audit entry (`app.published`, `app.paused`)
 * in the same transaction. Conditional on the status, so of two concurrent calls one moves and records it.
 */
async function moveStatus(em: EntityManager, app: App, to: 'published' | 'paused', audit: AuditContext) {
  if (app.status === to) return;
  const from = app.status;
  const updatedAt = new Date();
  await em.transactional(async (tx) => {
    const moved = await tx.nativeUpdate(App, { id: app.id, status: { $ne: to } }, { status: to, updatedAt });
    if (!moved) return;
    await recordAudit(tx, audit, {
      action: to === 'published' ? 'app.published' : 'app.paused',
      resourceType: 'app',
      resourceId: app.id,
      details: { slug: app.slug, from },
    });
  });
  await em.refresh(app);
}

/**
 * Pauses a published app: its public face answers 404 until it is published again. Pausing a paused app
 * changes nothing; a draft was never public, so pausing it is 409 `conflict`. Throws `not_found`.
 */
export async function pauseApp(
  em: EntityManager,
  identity: Identity,
  id: string,
  audit: AuditContext,
): Promise<AppView> {
  const app = await findApp(em, identity.workspaceId, id);
  if (app.status === 'draft') throw errors.conflict('A draft app is not published', { status: app.status });
  await moveStatus(em, app, 'paused', audit);
  return view(em, app);
}
