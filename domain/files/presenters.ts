import type { File } from '../../db/entities/File';
import type { Folder } from '../../db/entities/Folder';

/** The file object (docs/api/files.md); storage details (the key) never leave the service. */
export interface FileView {
  id: string;
  filename: string;
  mime: string;
  size: number;
  sha256: string;
  folderId: string | null;
  createdAt: string;
}

export interface FolderView {
  id: string;
  name: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

export function serializeFile(file: File): FileView {
  return {
    id: file.id,
    filename: file.filename,
    mime: file.mime,
    size: file.size,
    sha256: file.sha256,
    folderId: file.folder?.id ?? null,
    createdAt: file.createdAt.toISOString(),
  };
}

export function serializeFolder(folder: Folder): FolderView {
  return {
    id: folder.id,
    name: folder.name,
    parentId: folder.parent?.id ?? null,
    createdAt: folder.createdAt.toISOString(),
    updatedAt: folder.updatedAt.toISOString(),
  };
}
