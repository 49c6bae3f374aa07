import type { ReadParams, SavedTable } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { ErrorBox } from '../../components/States';

/** Keeps a read as a saved table, refreshed at once and then on an optional cron schedule (UTC). */
export function SaveTableForm({ sourceId, read }: { sourceId: string; read: ReadParams }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(read.object);
  const [cron, setCron] = useState('');
  const save = useMutation({
    mutationFn: () =>
      api<SavedTable>('/v1/saved-tables', {
        method: 'POST',
        json: {
          name: name.trim(),
          dataSourceId: sourceId,
          read,
          ...(cron.trim() ? { refresh: { cron: cron.trim() } } : {}),
        },
      }),
    onSuccess: (t) => {
      void client.invalidateQueries({ queryKey: ['saved-tables'] });
      navigate(`/saved-tables/${t.id}`);
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <h3>Save this read as a table</h3>
      <div className="row">
        <div className="field">
          <label htmlFor="save-name">Table name</label>
          <input id="save-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="save-cron">Refresh schedule (cron, UTC, optional)</label>
          <input
            id="save-cron"
            className="code"
            placeholder="0 6 * * *"
            aria-describedby="save-cron-help"
            value={cron}
            onChange={(e) => setCron(e.target.value)}
          />
          <span id="save-cron-help" className="small muted">
            minute hour day-of-month month day-of-week; empty: refresh by hand only
          </span>
        </div>
      </div>
      <ErrorBox error={save.error} title="Could not save the table" />
      <button className="primary" type="submit" disabled={!name.trim() || save.isPending}>
        Save table
      </button>
    </form>
  );
}
