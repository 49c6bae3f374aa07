import type { App, AppDomain, AppDomainCheck } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { IssueList } from '../../components/IssueList';
import { CopyButton } from '../../components/ShownOnce';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { Empty, ErrorBox } from '../../components/States';
import { when } from '../../components/format';

/** The app's custom domains: each with the TXT record that proves it, verified on request. */
export function AppDomains({ app }: { app: App }) {
  const client = useQueryClient();
  const [hostname, setHostname] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ['apps', app.id] });
  const add = useMutation({
    mutationFn: () =>
      api<AppDomain>(`/v1/apps/${app.id}/domains`, { method: 'POST', json: { hostname: hostname.trim() } }),
    onSuccess: () => {
      setHostname('');
      void refresh();
    },
  });
  return (
    <div className="panel">
      <h2>Custom domains</h2>
      <p className="small">
        Point the domain's DNS at this service, add the TXT record shown, then verify: a verified domain serves the
        app's form at its root.
      </p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <div className="field">
          <label htmlFor="domain-host">Hostname</label>
          <input
            id="domain-host"
            className="code"
            required
            placeholder="forms.example.com"
            value={hostname}
            onChange={(e) => setHostname(e.target.value.toLowerCase())}
          />
        </div>
        <button type="submit" disabled={add.isPending || !hostname.trim()}>
          Add domain
        </button>
      </form>
      <ErrorBox error={add.error} title="Could not add the domain" />
      <IssueList error={add.error} />
      {app.domains.length === 0 ? (
        <Empty>No custom domains.</Empty>
      ) : (
        <ul className="cards">
          {app.domains.map((d) => (
            <DomainRow key={d.hostname} appId={app.id} domain={d} onChange={refresh} />
          ))}
        </ul>
      )}
    </div>
  );
}

function DomainRow({ appId, domain, onChange }: { appId: string; domain: AppDomain; onChange: () => void }) {
  const path = `/v1/apps/${appId}/domains/${encodeURIComponent(domain.hostname)}`;
  const verify = useMutation({
    mutationFn: () => api<AppDomainCheck>(`${path}/verify`, { method: 'POST' }),
    onSuccess: onChange,
  });
  const remove = useMutation({ mutationFn: () => api(path, { method: 'DELETE' }), onSuccess: onChange });
  return (
    <li className="card" data-testid="domain">
      <h3 className="card-title">
        <code>{domain.hostname}</code> <span className="badge">{domain.status}</span>
      </h3>
      {domain.status === 'verified' ? (
        <p className="small">Verified {when(domain.verifiedAt)}.</p>
      ) : (
        <>
          <p className="small">Add this TXT record at your DNS provider, then verify:</p>
          <dl className="facts small">
            <dt>Type</dt>
            <dd>{domain.verification.type}</dd>
            <dt>Name</dt>
            <dd>
              <code data-testid="txt-name">{domain.verification.name}</code>{' '}
              <CopyButton value={domain.verification.name} label="the record name" />
            </dd>
            <dt>Value</dt>
            <dd>
              <code data-testid="txt-value">{domain.verification.value}</code>{' '}
              <CopyButton value={domain.verification.value} label="the record value" />
            </dd>
          </dl>
        </>
      )}
      {verify.data ? (
        <p className={verify.data.check.ok ? 'notice' : 'error'} role="status">
          {verify.data.check.ok ? '' : 'Not verified yet: '}
          {verify.data.check.message}
        </p>
      ) : null}
      <ErrorBox error={verify.error ?? remove.error} title="Could not change the domain" />
      <div className="actions">
        <button type="button" disabled={verify.isPending} onClick={() => verify.mutate()}>
          {domain.status === 'verified' ? 'Check again' : 'Verify'} {domain.hostname}
        </button>
        <ConfirmDelete
          label="Remove"
          confirmLabel={`Yes, remove ${domain.hostname}`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
    </li>
  );
}
