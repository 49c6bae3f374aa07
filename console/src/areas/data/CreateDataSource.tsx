import type { DataSource, DataSourceType } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { ErrorBox } from '../../components/States';

const DEFAULT_PORT: Record<DataSourceType, string> = { postgres: '5432', mysql: '3306', file: '' };

/** A new source: a database's connection (the password is stored encrypted, never shown again) or a file source. */
export function CreateDataSource() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [type, setType] = useState<DataSourceType>('file');
  const [host, setHost] = useState('');
  const [port, setPort] = useState('');
  const [database, setDatabase] = useState('');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [ssl, setSsl] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      api<DataSource>('/v1/data-sources', {
        method: 'POST',
        json:
          type === 'file'
            ? { name: name.trim(), type }
            : {
                name: name.trim(),
                type,
                config: { host: host.trim(), port: Number(port), database, user, password, ...(ssl ? { ssl } : {}) },
              },
      }),
    onSuccess: (s) => {
      void client.invalidateQueries({ queryKey: ['data-sources'] });
      navigate(`/data-sources/${s.id}`);
    },
  });
  const isDatabase = type !== 'file';
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>Add a data source</h2>
      <div className="row">
        <div className="field">
          <label htmlFor="ds-name">Name</label>
          <input id="ds-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="ds-type">Type</label>
          <select
            id="ds-type"
            value={type}
            onChange={(e) => {
              const t = e.target.value as DataSourceType;
              setType(t);
              setPort(DEFAULT_PORT[t]);
            }}
          >
            <option value="file">Uploaded sheets (CSV, XLSX)</option>
            <option value="postgres">PostgreSQL</option>
            <option value="mysql">MySQL or MariaDB</option>
          </select>
        </div>
      </div>
      {isDatabase ? (
        <>
          <div className="row">
            <div className="field">
              <label htmlFor="ds-host">Host (name or IP address)</label>
              <input id="ds-host" required value={host} onChange={(e) => setHost(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="ds-port">Port</label>
              <input
                id="ds-port"
                type="number"
                required
                min={1}
                max={65535}
                value={port}
                onChange={(e) => setPort(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="ds-database">Database</label>
              <input id="ds-database" required value={database} onChange={(e) => setDatabase(e.target.value)} />
            </div>
          </div>
          <div className="row">
            <div className="field">
              <label htmlFor="ds-user">User (give it SELECT only)</label>
              <input id="ds-user" required autoComplete="off" value={user} onChange={(e) => setUser(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="ds-password">Password (stored encrypted, never shown again)</label>
              <input
                id="ds-password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
          </div>
          <label className="check">
            <input type="checkbox" checked={ssl} onChange={(e) => setSsl(e.target.checked)} /> TLS (verifies the
            server's certificate)
          </label>
        </>
      ) : (
        <p className="small muted">Upload CSV or XLSX files on the source's page once it is made.</p>
      )}
      <ErrorBox error={create.error} title="Could not add the data source" />
      <button className="primary" type="submit" disabled={!name.trim() || create.isPending}>
        Add data source
      </button>
    </form>
  );
}
