import type { WhatsAppAccount } from '@svc/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api';
import { IssueList } from '../../components/IssueList';
import { ErrorBox } from '../../components/States';
import { useAgents } from '../../hooks';

const EMPTY = {
  phoneNumberId: '',
  accessToken: '',
  appSecret: '',
  verifyToken: '',
  templateName: '',
  templateLanguage: '',
};

/** Connects a Cloud API number: its credentials go to the service once and are never shown back. */
export function ConnectAccount() {
  const client = useQueryClient();
  const agents = useAgents();
  const [v, setV] = useState(EMPTY);
  const [agentId, setAgentId] = useState('');
  const field = (k: keyof typeof EMPTY) => ({
    value: v[k],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setV({ ...v, [k]: e.target.value }),
  });
  const create = useMutation({
    mutationFn: () =>
      api<WhatsAppAccount>('/v1/whatsapp/accounts', {
        method: 'POST',
        json: {
          phoneNumberId: v.phoneNumberId.trim(),
          accessToken: v.accessToken.trim(),
          appSecret: v.appSecret,
          verifyToken: v.verifyToken,
          agentId,
          template: v.templateName.trim()
            ? { name: v.templateName.trim(), language: v.templateLanguage.trim() || 'en_US' }
            : null,
        },
      }),
    onSuccess: () => {
      // write-only: the secrets leave the page once sent
      setV(EMPTY);
      void client.invalidateQueries({ queryKey: ['whatsapp'] });
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h3>Connect a WhatsApp number</h3>
      <div className="row">
        <div className="field">
          <label htmlFor="wa-number">Phone number ID (from API Setup)</label>
          <input id="wa-number" className="code" required inputMode="numeric" {...field('phoneNumberId')} />
        </div>
        <div className="field">
          <label htmlFor="wa-agent">Agent that answers</label>
          <select id="wa-agent" required value={agentId} onChange={(e) => setAgentId(e.target.value)}>
            <option value="">{agents.isPending ? 'Loading agents…' : 'Choose an agent'}</option>
            {(agents.data?.agents ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset>
        <legend>Credentials (stored encrypted, never shown again)</legend>
        <div className="row">
          <div className="field">
            <label htmlFor="wa-token">Access token</label>
            <input id="wa-token" type="password" required autoComplete="new-password" {...field('accessToken')} />
          </div>
          <div className="field">
            <label htmlFor="wa-secret">App secret</label>
            <input id="wa-secret" type="password" required autoComplete="new-password" {...field('appSecret')} />
          </div>
          <div className="field">
            <label htmlFor="wa-verify">Verify token (your choice; enter it in Meta's webhook settings too)</label>
            <input id="wa-verify" type="password" required autoComplete="new-password" {...field('verifyToken')} />
          </div>
        </div>
      </fieldset>
      <fieldset>
        <legend>Template for replies after the 24-hour window (optional)</legend>
        <div className="row">
          <div className="field">
            <label htmlFor="wa-tpl-name">Template name</label>
            <input id="wa-tpl-name" className="code" {...field('templateName')} />
          </div>
          <div className="field">
            <label htmlFor="wa-tpl-lang">Template language</label>
            <input id="wa-tpl-lang" className="code" placeholder="en_US" {...field('templateLanguage')} />
          </div>
        </div>
      </fieldset>
      <ErrorBox error={create.error} title="Could not connect the number" />
      <IssueList error={create.error} />
      {create.data ? (
        <p className="notice" role="status">
          Connected. In Meta's dashboard set the callback URL to <code className="wrap">{create.data.webhookUrl}</code>{' '}
          with the same verify token, and subscribe to <strong>messages</strong>.
        </p>
      ) : null}
      <button className="primary" type="submit" disabled={create.isPending || !agentId}>
        Connect number
      </button>
    </form>
  );
}
