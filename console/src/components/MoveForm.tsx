import { useState } from 'react';
import type { Folder } from '../types';

/** Where a file or a folder goes: a folder of the workspace, or the root (`null`). */
export function MoveForm(props: {
  id: string;
  label: string;
  current: string | null;
  targets: Folder[];
  onMove: (folderId: string | null) => void;
  onCancel: () => void;
}) {
  const [target, setTarget] = useState(props.current ?? '');
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        props.onMove(target || null);
      }}
    >
      <div className="field">
        <label htmlFor={props.id}>{props.label}</label>
        <select id={props.id} value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">Root (no folder)</option>
          {props.targets.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit">Move here</button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
  );
}
