import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { ErrorBox } from '../components/States';
import { MoveForm } from '../components/MoveForm';
import { useSession } from '../session';
import type { Folder } from '../types';

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

export function FolderRow({ folder, folders, open }: { folder: Folder; folders: Folder[]; open: () => void }) {
  const { can } = useSession();
  const client = useQueryClient();
  const [mode, setMode] = useState<'view' | 'rename' | 'move'>('view');
  const [name, setName] = useState(folder.name);
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
        <MoveForm
          id={`mf-${folder.id}`}
          label={`Move folder ${folder.name} to`}
          current={folder.parentId}
          targets={moveTargets(folder, folders)}
          onMove={(parentId) => patch.mutate({ parentId })}
          onCancel={() => setMode('view')}
        />
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
