import { z } from 'zod';
import { day, uuid } from './common';
import { linkOut } from './text';

const name = z.string().trim().min(1).max(200);
const description = z.string().max(2000).nullable();
/** Lowercase letters, digits and inner hyphens, 3 to 63 characters: one path segment, one DNS label. */
export const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/, 'Lowercase letters, digits and hyphens, 3 to 63 characters');
const fieldName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'A letter, then letters, digits or _ (at most 64)');
const label = z.string().trim().min(1).max(200);
const option = z.string().trim().min(1).max(200);

// `options` belongs to `select` fields alone, where it is required: one variant per kind says so in the document.
const plainField = z.strictObject({
  name: fieldName,
  label,
  type: z.enum(['text', 'textarea', 'number']),
  required: z.boolean(),
});
// `multiple`: the field takes several files (docs/api/apps.md#public-pages); one otherwise.
const fileField = z.strictObject({
  name: fieldName,
  label,
  type: z.literal('file'),
  required: z.boolean(),
  multiple: z.boolean().optional(),
});
const selectField = z.strictObject({
  name: fieldName,
  label,
  type: z.literal('select'),
  required: z.boolean(),
  options: z.array(option).min(1).max(100),
});
const field = z.discriminatedUnion('type', [plainField, selectField, fileField]);

/** A form: up to 30 fields with distinct names (the distinct names are checked by the service). */
export const formSchema = z.strictObject({ fields: z.array(field).min(1).max(30) });

export const createAppBody = z.strictObject({
  templateId: z.string().min(1).max(100).optional().describe('Starts from a template of GET /v1/app-templates'),
  name: name.optional().describe('Required unless a template gives it'),
  slug,
  description: description.optional(),
  agentId: uuid,
  form: formSchema.optional().describe('Required unless a template gives it'),
  priceListId: uuid.nullable().optional(),
});

export const updateAppBody = z
  .strictObject({
    name: name.optional(),
    slug: slug.optional(),
    description: description.optional(),
    agentId: uuid.optional(),
    form: formSchema.optional(),
    priceListId: uuid.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to update')
  .meta({ minProperties: 1 });

export const appUsageQuery = z.object({ from: day, to: day });

// Labels of letters, digits and inner hyphens; the last one starts with a letter (no IP addresses).
const hostnameRe = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const addDomainBody = z.strictObject({
  hostname: z.string().max(253).regex(hostnameRe, 'A lowercase DNS hostname such as app.example.com'),
});
export const domainParams = z.strictObject({
  id: uuid,
  hostname: z.string().min(1).max(253),
});

const fieldOut = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(['text', 'textarea', 'number', 'select', 'file']),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
  multiple: z.boolean().optional(),
});

export const domainOut = z.object({
  hostname: z.string(),
  status: z.enum(['pending', 'verified']),
  verification: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  verifiedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

export const domainCheckOut = domainOut.extend({ check: z.object({ ok: z.boolean(), message: z.string() }) });

export const appOut = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  agentId: z.uuid(),
  status: z.enum(['draft', 'published', 'paused']),
  form: z.object({ fields: z.array(fieldOut) }),
  priceListId: z.uuid().nullable(),
  domains: z.array(domainOut),
  publicUrl: linkOut,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const appListOut = z.object({ apps: z.array(appOut), nextCursor: z.string().nullable() });

export const appTemplateListOut = z.object({
  templates: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      form: z.object({ fields: z.array(fieldOut) }),
    }),
  ),
});

export const appUsageOut = z.object({
  appId: z.uuid(),
  from: z.string(),
  to: z.string(),
  runs: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number(),
  priceListId: z.uuid().nullable(),
  billedUsd: z.number().nullable(),
});
