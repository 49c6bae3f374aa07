import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { MutationStatus } from '../components/MutationStatus';
import { Empty, ErrorBox, QueryState } from '../components/States';
import { when } from '../components/format';
import { POLL_MS } from '../hooks';
import { WEBHOOK_EVENTS, type Delivery, type Webhook } from '../types';

const randomSecret = () => {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
};

export function WebhooksPage() {
  const hooks = useQuery({
    queryKey: ['webhooks'],
    queryFn: () => api<{ webhooks: Webhook[] }>('/v1/webhooks?limit=100'),
  });
  return (
    <section>
      <h1>Webhooks</h1>
      <CreateWebhook />
      <QueryState query={hooks} what="webhooks">
        {(d) =>
          d.webhooks.length === 0 ? (
            <Empty>No webhook subscriptions yet.</Empty>
          ) : (
            <ul className="cards">
              {d.webhooks.map((w) => (
                <WebhookRow key={w.id} hook={w} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}

function CreateWebhook() {
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['run.succeeded', 'run.failed']);
  const [secret, setSecret] = useState(randomSecret);
  const create = useMutation({
    mutationFn: () => api<Webhook>('/v1/webhooks', { method: 'POST', json: { url: url.trim(), events, secret } }),
    onSuccess: () => {
      setUrl('');
      void client.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const toggle = (e: string) => setEvents((cur) => (cur.includes(e) ? cur.filter((x) => x !== e) : [...cur, e]));
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>Subscribe a URL</h2>
      <div className="field">
        <label htmlFor="hook-url">URL</label>
        <input
          id="hook-url"
          type="url"
          required
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/hooks/svc"
        />
      </div>
      <fieldset>
        <legend>Events</legend>
        <div className="checks">
          {WEBHOOK_EVENTS.map((ev) => (
            <label key={ev} className="check">
              <input type="checkbox" checked={events.includes(ev)} onChange={() => toggle(ev)} /> {ev}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor="hook-secret">Signing secret (16 to 256 characters; keep a copy, it is never shown again)</label>
        <input
          id="hook-secret"
          className="code"
          required
          minLength={16}
          maxLength={256}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
        />
      </div>
      <MutationStatus mutation={create} failed="Could not subscribe" done="Subscribed." />
      <button className="primary" type="submit" disabled={create.isPending || events.length === 0 || !url.trim()}>
        Subscribe
      </button>
    </form>
  );
}

function WebhookRow({ hook }: { hook: Webhook }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => api(`/v1/webhooks/${hook.id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  return (
    <li className="card">
      <h2 className="card-title">
        <code className="wrap">{hook.url}</code> <span className="badge">{hook.status}</span>
      </h2>
      <p className="small">Events: {hook.events.join(', ')}</p>
      <p className="small muted">Created {when(hook.createdAt)}</p>
      <div className="actions">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Show deliveries'}
        </button>
        <ConfirmDelete
          confirmLabel="Yes, delete this subscription"
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <ErrorBox error={remove.error} title="Could not delete" />
      {open ? <Deliveries hookId={hook.id} /> : null}
    </li>
  );
}

function Deliveries({ hookId }: { hookId: string }) {
  const client = useQueryClient();
  const deliveries = useQuery({
    queryKey: ['webhooks', hookId, 'deliveries'],
    queryFn: () => api<{ deliveries: Delivery[] }>(`/v1/webhooks/${hookId}/deliveries?limit=50`),
    refetchInterval: POLL_MS,
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      api(`/v1/webhooks/${hookId}/deliveries/${deliveryId}/redeliver`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: ['webhooks', hookId, 'deliveries'] }),
  });
  return (
    <div>
      <h3>Deliveries</h3>
      <ErrorBox error={redeliver.error} title="Could not redeliver" />
      <QueryState query={deliveries} what="deliveries">
        {(d) =>
          d.deliveries.length === 0 ? (
            <Empty>No deliveries yet.</Empty>
          ) : (
            <div className="table-wrap" role="region" aria-label="Deliveries" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Run</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Created</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {d.deliveries.map((del) => (
                    <tr key={del.id} data-testid="delivery">
                      <td>{del.type}</td>
                      <td>
                        <Link to={`/runs/${del.runId}`}>{del.runId.slice(0, 8)}</Link>
                      </td>
                      <td>{del.status}</td>
                      <td>
                        <ol className="attempts">
                          {del.attempts.map((a, i) => (
                            <li key={i}>
                              {when(a.at)}: {a.statusCode ?? 'no response'}
                              {a.error ? ` (${a.error})` : ''}
                            </li>
                          ))}
                        </ol>
                      </td>
                      <td>{when(del.createdAt)}</td>
                      <td>
                        {/* a finished delivery may be sent again; one still being tried may not (docs/api/webhooks.md) */}
                        {del.status === 'failed' || del.status === 'succeeded' ? (
                          <button type="button" disabled={redeliver.isPending} onClick={() => redeliver.mutate(del.id)}>
                            Redeliver
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </div>
  );
}
