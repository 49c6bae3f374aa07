import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api } from '../api';
import { Empty, ErrorBox, QueryState } from '../components/States';
import { useSession } from '../session';
import type { FileItem, Folder } from '../types';
import { uploadFile } from '../upload';
import { FileRow } from './FileRow';
import { FolderRow } from './FolderRow';

interface Upload {
  name: string;
  progress: number;
  error?: unknown;
  done?: boolean;
}

export function FilesPage() {
  const { can } = useSession();
  const [folderId, setFolderId] = useState<string | null>(null);
  const allFolders = useQuery({
    queryKey: ['folders', 'all'],
    queryFn: () => api<{ folders: Folder[] }>('/v1/folders?limit=100'),
  });
  const where = folderId ?? 'root';
  const folders = useQuery({
    queryKey: ['folders', where],
    queryFn: () => api<{ folders: Folder[] }>(`/v1/folders?parentId=${where}&limit=100`),
  });
  const files = useQuery({
    queryKey: ['files', where],
    queryFn: () => api<{ files: FileItem[] }>(`/v1/files?folderId=${where}&limit=100`),
  });
  const byId = new Map((allFolders.data?.folders ?? []).map((f) => [f.id, f]));
  const path: Folder[] = [];
  for (let f = folderId ? byId.get(folderId) : undefined; f; f = f.parentId ? byId.get(f.parentId) : undefined)
    path.unshift(f);
  return (
    <section>
      <h1>Files</h1>
      <nav aria-label="Folder path" className="crumbs">
        <ol>
          <li>
            <button
              type="button"
              className="link"
              onClick={() => setFolderId(null)}
              aria-current={folderId === null ? 'location' : undefined}
            >
              All files (root)
            </button>
          </li>
          {path.map((f) => (
            <li key={f.id}>
              <button
                type="button"
                className="link"
                onClick={() => setFolderId(f.id)}
                aria-current={f.id === folderId ? 'location' : undefined}
              >
                {f.name}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      {can('files:write') ? (
        <>
          <UploadZone folderId={folderId} />
          <NewFolder parentId={folderId} />
        </>
      ) : null}
      <h2>Folders</h2>
      <QueryState query={folders} what="folders">
        {(d) =>
          d.folders.length === 0 ? (
            <Empty>No folders here.</Empty>
          ) : (
            <ul className="list">
              {d.folders.map((f) => (
                <FolderRow
                  key={f.id}
                  folder={f}
                  folders={allFolders.data?.folders ?? []}
                  open={() => setFolderId(f.id)}
                />
              ))}
            </ul>
          )
        }
      </QueryState>
      <h2>Files</h2>
      <QueryState query={files} what="files">
        {(d) =>
          d.files.length === 0 ? (
            <Empty>No files here.</Empty>
          ) : (
            <ul className="cards">
              {d.files.map((f) => (
                <FileRow key={f.id} file={f} folders={allFolders.data?.folders ?? []} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function UploadZone({ folderId }: { folderId: string | null }) {
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const start = (list: FileList | null) => {
    if (!list) return;
    for (const file of Array.from(list)) {
      const update = (patch: Partial<Upload>) =>
        setUploads((cur) => cur.map((u) => (u.name === file.name ? { ...u, ...patch } : u)));
      setUploads((cur) => [...cur.filter((u) => u.name !== file.name), { name: file.name, progress: 0 }]);
      uploadFile(file, folderId, (progress) => update({ progress })).then(
        () => {
          update({ done: true, progress: 1 });
          void client.invalidateQueries({ queryKey: ['files'] });
        },
        (error) => update({ error }),
      );
    }
  };
  return (
    <div
      className={`dropzone${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        start(e.dataTransfer.files);
      }}
    >
      <p>Drop files here, or</p>
      <label htmlFor="upload-input" className="button">
        Choose files to upload
      </label>
      <input
        id="upload-input"
        ref={input}
        className="visually-hidden-input"
        type="file"
        multiple
        onChange={(e) => {
          start(e.target.files);
          e.target.value = '';
        }}
      />
      {uploads.length > 0 ? (
        <ul className="uploads">
          {uploads.map((u) => (
            <li key={u.name}>
              <label htmlFor={`up-${u.name}`}>
                {u.name}: {u.error ? 'failed' : u.done ? 'uploaded' : `${Math.round(u.progress * 100)}%`}
              </label>
              <progress id={`up-${u.name}`} max={1} value={u.progress} />
              <ErrorBox error={u.error} title={`Could not upload ${u.name}`} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function NewFolder({ parentId }: { parentId: string | null }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => api<Folder>('/v1/folders', { method: 'POST', json: { name: name.trim(), parentId } }),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: ['folders'] });
    },
  });
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <div className="field">
        <label htmlFor="folder-name">New folder name</label>
        <input id="folder-name" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <button type="submit" disabled={create.isPending || !name.trim()}>
        Create folder
      </button>
      <ErrorBox error={create.error} title="Could not create the folder" />
    </form>
  );
}
