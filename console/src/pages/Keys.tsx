import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { Empty, ErrorBox, QueryState } from '../components/States';
import { usd, when } from '../components/format';
import { KEY_SCOPES } from '../roles';
import { useSession } from '../session';
import type { ApiKey } from '../types';

export function KeysPage() {
  const { can } = useSession();
  const keys = useQuery({
    queryKey: ['keys'],
    queryFn: () => api<{ apiKeys: ApiKey[] }>('/v1/api-keys?limit=100'),
    enabled: can('keys:manage'),
  });
  if (!can('keys:manage')) {
    return (
      <section>
        <h1>API keys</h1>
        <p>Only a workspace owner manages API keys.</p>
      </section>
    );
  }
  return (
    <section>
      <h1>API keys</h1>
      <CreateKey />
      <QueryState query={keys} what="API keys">
        {(d) =>
          d.apiKeys.length === 0 ? (
            <Empty>No API keys yet.</Empty>
          ) : (
            <ul className="cards">
              {d.apiKeys.map((k) => (
                <KeyRow key={k.id} apiKey={k} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function CreateKey() {
  const { workspace, can } = useSession();
  const client = useQueryClient();
  const grantable = KEY_SCOPES.filter((s) => can(s));
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['runs:read', 'runs:write']);
  const [cap, setCap] = useState('');
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      api<ApiKey & { key: string }>('/v1/api-keys', {
        method: 'POST',
        json: { name: name.trim(), scopes, ...(cap.trim() ? { monthlySpendCapUsd: Number(cap) } : {}) },
      }),
    onSuccess: () => {
      setCopied(false);
      void client.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  const toggle = (s: string) => setScopes((cur) => (cur.includes(s) ? cur.filter((x) => x !== s) : [...cur, s]));
  return (
    <div className="panel">
      <h2>Create a key</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <div className="row">
          <div className="field">
            <label htmlFor="key-name">Name</label>
            <input id="key-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="key-cap">Monthly spend cap in USD (optional)</label>
            <input
              id="key-cap"
              type="number"
              min="0"
              step="0.01"
              inputMode="decimal"
              value={cap}
              onChange={(e) => setCap(e.target.value)}
            />
          </div>
        </div>
        <fieldset>
          <legend>Scopes (what your role, {workspace.role}, may grant)</legend>
          <div className="checks">
            {grantable.map((s) => (
              <label key={s} className="check">
                <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorBox error={create.error} title="Could not create the key" />
        <button className="primary" type="submit" disabled={create.isPending || !name.trim() || scopes.length === 0}>
          Create key
        </button>
      </form>
      {create.data ? (
        <div className="secret" role="status">
          <p>
            <strong>Your new key.</strong> Copy it now: it is shown only this once.
          </p>
          <label htmlFor="new-key">Key {create.data.name}</label>
          <div className="row">
            <input id="new-key" readOnly value={create.data.key} onFocus={(e) => e.target.select()} className="code" />
            <button
              type="button"
              onClick={() => {
                void navigator.clipboard?.writeText(create.data.key).then(
                  () => setCopied(true),
                  () => setCopied(false),
                );
              }}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [cap, setCap] = useState(apiKey.monthlySpendCapUsd === null ? '' : String(apiKey.monthlySpendCapUsd));
  const revoke = useMutation({
    mutationFn: () => api(`/v1/api-keys/${apiKey.id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['keys'] }),
  });
  const setSpendCap = useMutation({
    mutationFn: () =>
      api<ApiKey>(`/v1/api-keys/${apiKey.id}/spend-cap`, {
        method: 'PUT',
        json: { monthlySpendCapUsd: cap.trim() ? Number(cap) : null },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['keys'] }),
  });
  const capId = `cap-${apiKey.id}`;
  return (
    <li className="card" data-testid="api-key">
      <h2 className="card-title">
        {apiKey.name} <code className="small">{apiKey.prefix}…</code>
      </h2>
      <p className="small">Scopes: {apiKey.scopes.join(', ')}</p>
      <p className="small muted">
        Created {when(apiKey.createdAt)} · last used {when(apiKey.lastUsedAt)} · spent this month{' '}
        {usd(apiKey.spentThisMonthUsd)}
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          setSpendCap.mutate();
        }}
      >
        <div className="field">
          <label htmlFor={capId}>Spend cap for {apiKey.name} (USD, empty for none)</label>
          <input id={capId} type="number" min="0" step="0.01" value={cap} onChange={(e) => setCap(e.target.value)} />
        </div>
        <button type="submit" disabled={setSpendCap.isPending}>
          Set cap
        </button>
      </form>
      <ErrorBox error={setSpendCap.error} title="Could not set the cap" />
      {confirming ? (
        <div className="confirm" role="group" aria-label={`Confirm revoking ${apiKey.name}`}>
          <p>Revoke {apiKey.name}? Every caller using it gets 401 from now on.</p>
          <div className="actions">
            <button className="danger" type="button" disabled={revoke.isPending} onClick={() => revoke.mutate()}>
              Yes, revoke {apiKey.name}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : (
        <button className="danger" type="button" onClick={() => setConfirming(true)}>
          Revoke {apiKey.name}
        </button>
      )}
      <ErrorBox error={revoke.error} title="Could not revoke" />
    </li>
  );
}
