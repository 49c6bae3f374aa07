import { z } from 'zod';
import { filenameProblem } from '../../domain/files/names';
import { pageQuery } from '../../domain/shared/pagination';

// File and folder names alike (domain/files/names.ts): 1 to 255 characters, no "/" and no NUL.
const name = z
  .string()
  .check(
    z.refine((value) => filenameProblem(value) === null, { error: (iss) => filenameProblem(String(iss.input)) ?? '' }),
  )
  .meta({ minLength: 1, maxLength: 255, pattern: '^[^/\\u0000]*$' });

/** A folder filter: a folder id, or `root` for what is in no folder; absent means everything. */
const folderFilter = z
  .union([z.literal('root'), z.uuid()])
  .optional()
  .describe('A folder id, or "root" for items in no folder; absent lists the whole workspace');

export const uploadQuery = z.object({
  folderId: z.uuid().optional().describe('Folder for a raw upload (a multipart upload uses its folderId field)'),
});

export const listFilesQuery = pageQuery.extend({ folderId: folderFilter });
export const listFoldersQuery = pageQuery.extend({ parentId: folderFilter });

export const patchFileBody = z.object({
  filename: name.optional(),
  folderId: z.uuid().nullable().optional().describe('null moves the file to the root'),
});

export const createFolderBody = z.object({ name, parentId: z.uuid().nullable().optional() });

export const patchFolderBody = z.object({
  name: name.optional(),
  parentId: z.uuid().nullable().optional().describe('null moves the folder to the root'),
});

export const fileOut = z.object({
  id: z.uuid(),
  filename: z.string(),
  mime: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  folderId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

export const folderOut = z.object({
  id: z.uuid(),
  name: z.string(),
  parentId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const fileListOut = z.object({ files: z.array(fileOut), nextCursor: z.string().nullable() });
export const folderListOut = z.object({ folders: z.array(folderOut), nextCursor: z.string().nullable() });

/**
 * The name of a raw upload's file (api/uploads.ts): required with a raw body, ignored with multipart, whose
 * `file` part names itself. OpenAPI cannot make a header depend on the media type, so it is optional here.
 */
export const uploadHeaders = z.object({
  'X-Filename': z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('The file name, URL-encoded (non-ASCII names): required with a raw body, ignored with multipart'),
});
