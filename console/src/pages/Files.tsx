import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api } from '../api';
import { Empty, ErrorBox, QueryState } from '../components/States';
import { bytes, when } from '../components/format';
import { useSession } from '../session';
import type { FileItem, Folder } from '../types';
import { downloadFile, uploadFile } from '../upload';

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

/** A folder may move anywhere but into itself or below itself (the service refuses cycles too). */
function moveTargets(folder: Folder, folders: Folder[]): Folder[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const inside = (f: Folder): boolean => {
    for (let p: Folder | undefined = f; p; p = p.parentId ? byId.get(p.parentId) : undefined)
      if (p.id === folder.id) return true;
    return false;
  };
  return folders.filter((f) => !inside(f));
}

function FolderRow({ folder, folders, open }: { folder: Folder; folders: Folder[]; open: () => void }) {
  const { can } = useSession();
  const client = useQueryClient();
  const [mode, setMode] = useState<'view' | 'rename' | 'move'>('view');
  const [name, setName] = useState(folder.name);
  const [target, setTarget] = useState(folder.parentId ?? '');
  const refresh = () => client.invalidateQueries({ queryKey: ['folders'] });
  const patch = useMutation({
    mutationFn: (body: Record<string, unknown>) => api(`/v1/folders/${folder.id}`, { method: 'PATCH', json: body }),
    onSuccess: () => {
      setMode('view');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/folders/${folder.id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return (
    <li>
      <button type="button" className="link" onClick={open}>
        {folder.name}/
      </button>
      {!can('files:write') ? null : mode === 'rename' ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            patch.mutate({ name: name.trim() });
          }}
        >
          <label htmlFor={`rf-${folder.id}`}>New name for folder {folder.name}</label>
          <input id={`rf-${folder.id}`} value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : mode === 'move' ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            patch.mutate({ parentId: target || null });
          }}
        >
          <label htmlFor={`mf-${folder.id}`}>Move folder {folder.name} to</label>
          <select id={`mf-${folder.id}`} value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">Root (no folder)</option>
            {moveTargets(folder, folders).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
          <button type="submit">Move here</button>
          <button type="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : (
        <span className="actions inline">
          <button type="button" onClick={() => setMode('rename')}>
            Rename
          </button>
          <button type="button" onClick={() => setMode('move')}>
            Move
          </button>
          <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
            Delete
          </button>
        </span>
      )}
      <ErrorBox error={patch.error ?? remove.error} title="Could not change the folder" />
    </li>
  );
}

function FileRow({ file, folders }: { file: FileItem; folders: Folder[] }) {
  const { can } = useSession();
  const client = useQueryClient();
  const [mode, setMode] = useState<'view' | 'rename' | 'move' | 'delete'>('view');
  const [name, setName] = useState(file.filename);
  const [target, setTarget] = useState(file.folderId ?? '');
  const refresh = () => client.invalidateQueries({ queryKey: ['files'] });
  const patch = useMutation({
    mutationFn: (body: Record<string, unknown>) => api(`/v1/files/${file.id}`, { method: 'PATCH', json: body }),
    onSuccess: () => {
      setMode('view');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => api(`/v1/files/${file.id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const download = useMutation({ mutationFn: () => downloadFile(file) });
  return (
    <li className="card" data-testid="file">
      <h3 className="card-title">{file.filename}</h3>
      <p className="small muted">
        {bytes(file.size)} · {file.mime} · {when(file.createdAt)}
      </p>
      <div className="actions">
        <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
          Download {file.filename}
        </button>
        {can('files:write') ? (
          <>
            <button type="button" onClick={() => setMode('rename')}>
              Rename
            </button>
            <button type="button" onClick={() => setMode('move')}>
              Move
            </button>
            <button type="button" className="danger" onClick={() => setMode('delete')}>
              Delete
            </button>
          </>
        ) : null}
      </div>
      {mode === 'rename' ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            patch.mutate({ filename: name.trim() });
          }}
        >
          <div className="field">
            <label htmlFor={`rn-${file.id}`}>New name for {file.filename}</label>
            <input id={`rn-${file.id}`} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <button type="submit">Save name</button>
          <button type="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : null}
      {mode === 'move' ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            patch.mutate({ folderId: target || null });
          }}
        >
          <div className="field">
            <label htmlFor={`mv-${file.id}`}>Move {file.filename} to</label>
            <select id={`mv-${file.id}`} value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">Root (no folder)</option>
              {folders.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Move here</button>
          <button type="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : null}
      {mode === 'delete' ? (
        <div className="confirm" role="group" aria-label={`Confirm deleting ${file.filename}`}>
          <p>Delete {file.filename}? This cannot be undone.</p>
          <button type="button" className="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
            Yes, delete it
          </button>
          <button type="button" onClick={() => setMode('view')}>
            Keep it
          </button>
        </div>
      ) : null}
      <ErrorBox error={patch.error ?? remove.error ?? download.error} title="Could not change the file" />
    </li>
  );
}
