import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { bytes, when } from '../components/format';
import { ErrorBox } from '../components/States';
import { MoveForm } from '../components/MoveForm';
import { useSession } from '../session';
import type { FileItem, Folder } from '../types';
import { downloadFile } from '../upload';

export function FileRow({ file, folders }: { file: FileItem; folders: Folder[] }) {
  const { can } = useSession();
  const client = useQueryClient();
  const [mode, setMode] = useState<'view' | 'rename' | 'move' | 'delete'>('view');
  const [name, setName] = useState(file.filename);
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
        <MoveForm
          id={`mv-${file.id}`}
          label={`Move ${file.filename} to`}
          current={file.folderId}
          targets={folders}
          onMove={(folderId) => patch.mutate({ folderId })}
          onCancel={() => setMode('view')}
        />
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
