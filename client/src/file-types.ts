/** The file library's folders, and the bodies that rename and move files and folders (docs/api/files.md). */

/** A folder of the file library; folders nest, and `parentId` is `null` at the root. */
export interface Folder {
  id: string;
  name: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Body of `folders.create`: 1..255 characters, no `/` and no NUL; without `parentId` (or `null`) at the root. */
export interface FolderCreateParams {
  name: string;
  parentId?: string | null;
}

/** Body of `folders.update`: a new name, a new parent (`null`: the root), or both. */
export interface FolderUpdateParams {
  name?: string;
  parentId?: string | null;
}

/** Filters of `folders.list`: `parentId` a folder id, or `'root'` for the folders at the root; absent, every folder. */
export interface FolderListParams {
  parentId?: string;
  /** Page size, 1..100 (server default 20). */
  limit?: number;
}

/** Body of `files.update`: a new filename, another folder (`null`: the root), or both. */
export interface FileUpdateParams {
  filename?: string;
  folderId?: string | null;
}
